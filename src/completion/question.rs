//! What the word under the cursor asks for, decided from the line alone (no kubeconfig, no
//! network): a flag, a fixed value, a file, or something only the kubeconfig or the cluster
//! knows (contexts, namespaces, resource types, object names). `answers` finds the latter.
//!
//! A question also says how answers become words: what the word already holds before the part
//! being completed (`--context=`, `deploy/`, `pods,`), what must be typed already, and what
//! follows an answer (`/` after a type in `TYPE/NAME` form).

use super::candidate::Candidate;
use super::vocabulary::{self, Vocabulary};
use super::words::{Cursor, Line};

/// What is needed to answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Need {
    /// Nothing completes here (a label selector, a token).
    Nothing,
    /// kw's own vocabulary answers.
    Fixed(Vec<Candidate>),
    /// The shell's file names.
    Files,
    /// The kubeconfig's contexts, clusters or users.
    Contexts,
    Clusters,
    Users,
    /// The cluster's namespaces.
    Namespaces,
    /// The cluster's resource types.
    Types,
    /// Names of the objects of the type typed as `type_typed`.
    Names {
        type_typed: String,
    },
    /// The condition types the objects on the line report (`--until condition=<TAB>`).
    ConditionTypes,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question {
    pub need: Need,
    /// Put before every answer: the part of the word that is not being completed.
    pub lead: String,
    /// What the user typed of the answer; answers that do not start with it are dropped.
    pub typed: String,
    /// Put after every answer.
    pub suffix: String,
    /// Answers already on the line (`kw get pods a <TAB>` does not offer `a` again).
    pub exclude: Vec<String>,
}

impl Question {
    fn new(need: Need, lead: impl Into<String>, typed: impl Into<String>) -> Question {
        Question {
            need,
            lead: lead.into(),
            typed: typed.into(),
            suffix: String::new(),
            exclude: Vec::new(),
        }
    }

    /// The words to offer, from the answers to `need`: filtered by what was typed, put in
    /// their place in the word, sorted and without repeats.
    pub fn finish(&self, answers: Vec<Candidate>) -> Vec<Candidate> {
        let mut words: Vec<Candidate> = answers
            .into_iter()
            .filter(|c| c.word.starts_with(&self.typed) && !self.exclude.contains(&c.word))
            .map(|c| Candidate {
                word: format!("{}{}{}", self.lead, c.word, self.suffix),
                description: c.description,
            })
            .collect();
        words.sort();
        words.dedup_by(|a, b| a.word == b.word);
        words
    }
}

/// The question the cursor of `line` asks.
pub fn ask(line: &Line, vocabulary: &Vocabulary) -> Question {
    let subcommand = line.subcommand.as_deref();
    match &line.cursor {
        Cursor::FlagName { typed } => {
            Question::new(Need::Fixed(vocabulary.flags(subcommand)), "", typed.clone())
        }
        Cursor::Subcommand { typed } => {
            Question::new(Need::Fixed(vocabulary.subcommands()), "", typed.clone())
        }
        Cursor::FlagValue { flag, lead, typed } => {
            flag_value(vocabulary, subcommand, flag, lead, typed)
        }
        Cursor::Argument { index, typed } => match subcommand {
            // `kw wait` takes `get`'s targets (`TYPE/NAME`, `TYPE NAME...`).
            Some("get" | "wait") => get_argument(line, *index, typed),
            Some("rollout") => rollout_argument(vocabulary, line, *index, typed),
            Some(other) if *index == 0 => Question::new(
                Need::Fixed(vocabulary.argument_values(other)),
                "",
                typed.clone(),
            ),
            _ => Question::new(Need::Nothing, "", typed.clone()),
        },
    }
}

fn flag_value(
    vocabulary: &Vocabulary,
    subcommand: Option<&str>,
    flag: &str,
    lead: &str,
    typed: &str,
) -> Question {
    let need = match flag {
        // A comma list of namespaces or contexts (`-n web,<TAB>`): complete the last item.
        "namespace" | "context" if typed.contains(',') => {
            let (done, last) = typed.split_at(typed.rfind(',').map_or(0, |at| at + 1));
            let need = if flag == "namespace" {
                Need::Namespaces
            } else {
                Need::Contexts
            };
            let mut question = Question::new(need, format!("{lead}{done}"), last);
            question.exclude = done.split(',').map(String::from).collect();
            return question;
        }
        "namespace" => Need::Namespaces,
        "context" => Need::Contexts,
        "cluster" => Need::Clusters,
        "user" => Need::Users,
        "output" if !typed.contains('=') => Need::Fixed(vocabulary::output_formats()),
        "until" | "fail-on" => return condition(flag, lead, typed),
        // `kw wait --for` takes `--until`'s words (`get --for` is all|any).
        "for" if subcommand == Some("wait") => return condition("until", lead, typed),
        "only" => {
            // A comma list: complete the last item.
            let (done, last) = match typed.rfind(',') {
                Some(at) => typed.split_at(at + 1),
                None => ("", typed),
            };
            let mut question = Question::new(
                Need::Fixed(vocabulary.fixed_values(subcommand, flag)),
                format!("{lead}{done}"),
                last,
            );
            question.exclude = done.split(',').map(String::from).collect();
            if question.need == Need::Fixed(Vec::new()) {
                question.need = Need::Fixed(
                    ["added", "modified", "deleted"]
                        .into_iter()
                        .map(Candidate::new)
                        .collect(),
                );
            }
            return question;
        }
        _ if vocabulary.is_path(subcommand, flag) => Need::Files,
        _ => {
            let values = vocabulary.fixed_values(subcommand, flag);
            if values.is_empty() {
                Need::Nothing
            } else {
                Need::Fixed(values)
            }
        }
    };
    Question::new(need, lead, typed)
}

/// `--until`/`--fail-on`: the kinds of EXPR, then after `condition=` the condition types, then
/// after `condition=TYPE=` a status.
fn condition(flag: &str, lead: &str, typed: &str) -> Question {
    let Some(rest) = typed.strip_prefix("condition=") else {
        return Question::new(Need::Fixed(vocabulary::conditions(flag)), lead, typed);
    };
    match rest.split_once('=') {
        Some((kind, status)) => Question::new(
            Need::Fixed(vec![Candidate::new("True"), Candidate::new("False")]),
            format!("{lead}condition={kind}="),
            status,
        ),
        None => Question::new(Need::ConditionTypes, format!("{lead}condition="), rest),
    }
}

/// The types `kubectl rollout status` offers (its `ValidArgs`).
const ROLLOUT_TYPES: [&str; 3] = ["deployment", "daemonset", "statefulset"];

/// `kw rollout` arguments: the verb (`status`), then `TYPE NAME` or `TYPE/NAME` as `get`'s.
fn rollout_argument(vocabulary: &Vocabulary, line: &Line, index: usize, typed: &str) -> Question {
    if index == 0 {
        return Question::new(Need::Fixed(vocabulary.subcommands_of("rollout")), "", typed);
    }
    if index == 1 && !typed.contains('/') {
        let types = ROLLOUT_TYPES.into_iter().map(Candidate::new).collect();
        return Question::new(Need::Fixed(types), "", typed);
    }
    let mut after_verb = line.clone();
    after_verb.arguments.remove(0);
    get_argument(&after_verb, index - 1, typed)
}

/// `kw get` arguments: `TYPE[,TYPE...]`, `TYPE NAME...`, `TYPE/NAME...`.
fn get_argument(line: &Line, index: usize, typed: &str) -> Question {
    if let Some((type_typed, name)) = typed.split_once('/') {
        let mut question = Question::new(
            Need::Names {
                type_typed: type_typed.to_string(),
            },
            format!("{type_typed}/"),
            name,
        );
        question.exclude = line
            .arguments
            .iter()
            .filter_map(|a| a.split_once('/'))
            .filter(|(t, _)| *t == type_typed)
            .map(|(_, n)| n.to_string())
            .collect();
        return question;
    }
    let first = line.arguments.first().filter(|_| index > 0);
    match first {
        None => {
            // The type (or a comma list of types).
            let (done, last) = match typed.rfind(',') {
                Some(at) => typed.split_at(at + 1),
                None => ("", typed),
            };
            let mut question = Question::new(Need::Types, done, last);
            question.exclude = done.split(',').map(String::from).collect();
            question
        }
        // `kw get deploy/a <TAB>`: another TYPE/NAME; offer types to put a `/` after.
        Some(first) if first.contains('/') => {
            let mut question = Question::new(Need::Types, "", typed);
            question.suffix = "/".into();
            question
        }
        Some(first) if first.contains(',') => Question::new(Need::Nothing, "", typed),
        Some(first) => {
            let mut question = Question::new(
                Need::Names {
                    type_typed: first.clone(),
                },
                "",
                typed,
            );
            question.exclude = line.arguments[1..].to_vec();
            question
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::completion::words;

    fn ask_about(text: &str) -> Question {
        let vocabulary = Vocabulary::of_kw();
        let words: Vec<String> = text.split(' ').map(String::from).collect();
        ask(&words::parse(&words, &vocabulary.book()), &vocabulary)
    }

    fn need(text: &str) -> Need {
        ask_about(text).need
    }

    #[test]
    fn asks_the_cluster_for_types_names_and_namespaces() {
        assert_eq!(need("get po"), Need::Types);
        assert_eq!(need("--context x -n y get "), Need::Types);
        assert_eq!(
            need("get pods we"),
            Need::Names {
                type_typed: "pods".into()
            }
        );
        assert_eq!(
            need("get deploy/"),
            Need::Names {
                type_typed: "deploy".into()
            }
        );
        assert_eq!(need("get pods -n "), Need::Namespaces);
        assert_eq!(need("get pods --namespace=te"), Need::Namespaces);
        assert_eq!(need("--context "), Need::Contexts);
        let q = ask_about("get pods --context=east,we");
        assert_eq!((q.need.clone(), q.typed.as_str()), (Need::Contexts, "we"));
        assert_eq!(q.exclude, vec!["east".to_string(), String::new()]);
        let q = ask_about("get pods -n web,a");
        assert_eq!((q.need.clone(), q.typed.as_str()), (Need::Namespaces, "a"));
        assert_eq!(need("get --cluster "), Need::Clusters);
        assert_eq!(need("get --user "), Need::Users);
        assert_eq!(need("get pods --until condition="), Need::ConditionTypes);
        assert_eq!(need("get pods,deploy "), Need::Nothing);
        assert_eq!(need("get pods -l "), Need::Nothing);
        assert_eq!(need("get --kubeconfig "), Need::Files);
        assert_eq!(need("get -f "), Need::Files);
    }

    #[test]
    fn wait_offers_the_conditions_then_get_s_targets() {
        assert_eq!(need("wait --for condition="), Need::ConditionTypes);
        assert_eq!(need("wait --for=condition="), Need::ConditionTypes);
        let words: Vec<String> = match need("wait --for ") {
            Need::Fixed(candidates) => candidates.into_iter().map(|c| c.word).collect(),
            other => panic!("{other:?}"),
        };
        for word in ["condition=", "jsonpath=", "delete", "create", "ready"] {
            assert!(words.contains(&word.to_string()), "{words:?}");
        }
        assert_eq!(
            need("wait --for=delete deployment w"),
            need("get deployment w")
        );
        assert_eq!(need("wait --for=delete po"), need("get po"));
    }

    #[test]
    fn rollout_status_offers_its_verb_kubectls_types_then_names() {
        let q = ask_about("rollout st");
        assert_eq!(
            q.finish(match q.need.clone() {
                Need::Fixed(words) => words,
                other => panic!("{other:?}"),
            })[0]
                .word,
            "status"
        );
        let q = ask_about("rollout status dae");
        let Need::Fixed(types) = q.need.clone() else {
            panic!("{:?}", q.need);
        };
        assert_eq!(q.finish(types), [Candidate::new("daemonset")]);
        let named = Need::Names {
            type_typed: "deployment".into(),
        };
        assert_eq!(need("rollout status deployment w"), named);
        assert_eq!(need("rollout status --timeout 5m deployment/w"), named);
        assert_eq!(
            need("rollout status deployment/w --revision 2 -n "),
            Need::Namespaces
        );
    }

    #[test]
    fn places_answers_in_the_word() {
        let q = ask_about("get pods,dep");
        assert_eq!((q.lead.as_str(), q.typed.as_str()), ("pods,", "dep"));
        let words = q.finish(vec![Candidate::new("deployments"), Candidate::new("pods")]);
        assert_eq!(words, [Candidate::new("pods,deployments")]);

        let q = ask_about("get deploy/web deploy/");
        assert_eq!(q.lead, "deploy/");
        assert_eq!(
            q.finish(vec![Candidate::new("web"), Candidate::new("api")]),
            [Candidate::new("deploy/api")]
        );

        let q = ask_about("get deploy/web ");
        assert_eq!((q.need.clone(), q.suffix.as_str()), (Need::Types, "/"));

        let q = ask_about("get pods a ");
        assert_eq!(
            q.finish(vec![Candidate::new("a"), Candidate::new("b")]),
            [Candidate::new("b")]
        );

        let q = ask_about("get --context=s");
        assert_eq!(
            q.finish(vec![Candidate::new("sim"), Candidate::new("prod")]),
            [Candidate::new("--context=sim")]
        );
    }

    #[test]
    fn offers_kws_own_vocabulary() {
        let words = |text: &str| -> Vec<String> {
            let q = ask_about(text);
            let Need::Fixed(answers) = q.need.clone() else {
                panic!("{text}: {:?}", q.need);
            };
            q.finish(answers).into_iter().map(|c| c.word).collect()
        };
        assert_eq!(
            words("get pods -o j"),
            [
                "json",
                "jsonl",
                "jsonpath-as-json=",
                "jsonpath-file=",
                "jsonpath="
            ]
        );
        assert_eq!(
            words("get pods --until "),
            ["condition=", "create", "delete", "jsonpath=", "ready"]
        );
        assert_eq!(
            words("get pods --fail-on "),
            ["condition=", "create", "delete", "failed", "jsonpath="]
        );
        assert_eq!(
            words("get pods --fail-on=condition=Failed="),
            [
                "--fail-on=condition=Failed=False",
                "--fail-on=condition=Failed=True"
            ]
        );
        assert_eq!(
            words("get --only added,"),
            ["added,deleted", "added,modified"]
        );
        assert_eq!(words("get --color "), ["always", "auto", "never"]);
        assert_eq!(words("g"), ["get"]);
        assert_eq!(words("completion z"), ["zsh"]);
        assert!(words("get pods --wat").contains(&"--watch".to_string()));
        assert!(words("--kube").contains(&"--kubeconfig".to_string()));
    }
}
