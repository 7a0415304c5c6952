# bash completion for kw                                   -*- shell-script -*-
#
# Printed by `kw completion bash`. On TAB it asks kw itself what fits (`kw __complete`), so it
# always knows this kw's flags and the cluster's resource types, objects and namespaces, and
# the kubeconfig's contexts, clusters and users. It never changes when kw does.
#
# Enable it in this shell:   source <(kw completion bash)
# For every new shell:       kw completion bash > ~/.local/share/bash-completion/completions/kw

_kw() {
    local line=${COMP_LINE:0:COMP_POINT}
    local -a words
    read -r -a words <<< "$line"
    # After a space, the word being completed is a new, empty one.
    if [[ -z $line || $line == *[[:space:]] ]]; then
        words+=("")
    fi
    (( ${#words[@]} >= 2 )) || return 0

    local kw=${words[0]}
    type -P "$kw" > /dev/null 2>&1 || kw=kw
    local out
    out=$("$kw" __complete -- "${words[@]:1}" 2> /dev/null < /dev/null) || return 0

    # bash splits a word at the characters of COMP_WORDBREAKS (`=`, `:`), kw answers with whole
    # words: keep the part of each answer that replaces bash's current word.
    local cur=""
    if (( COMP_CWORD < ${#COMP_WORDS[@]} )); then
        cur=${COMP_WORDS[COMP_CWORD]}
    fi
    local word=${words[${#words[@]}-1]}
    local lead=""
    if [[ $word == *"$cur" ]]; then
        lead=${word%"$cur"}
    fi

    COMPREPLY=()
    local answer
    while IFS= read -r answer; do
        case $answer in
            "") ;;
            :files)
                [[ $cur == "=" ]] && cur=""
                compopt -o filenames 2> /dev/null
                while IFS= read -r answer; do
                    COMPREPLY+=("$answer")
                done < <(compgen -f -- "$cur")
                return 0
                ;;
            *)
                answer=${answer%%$'\t'*}
                if [[ $answer == "$lead"* ]]; then
                    COMPREPLY+=("${answer#"$lead"}")
                fi
                ;;
        esac
    done <<< "$out"

    # An answer ending in `=`, `/` or `,` is not a whole word yet: no space after it.
    if (( ${#COMPREPLY[@]} == 1 )) && [[ ${COMPREPLY[0]} == *[=/,] ]]; then
        compopt -o nospace 2> /dev/null
    fi
    return 0
}

complete -F _kw kw
