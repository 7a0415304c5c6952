# bash completion for kw                                   -*- shell-script -*-
#
# Printed by `kw completion bash`. On TAB it asks kw itself what fits (`kw __complete`), so it
# always knows this kw's flags and the cluster's resource types, objects and namespaces, and
# the kubeconfig's contexts, clusters and users. It never changes when kw does.
#
# Enable it in this shell:   source <(kw completion bash)
# For every new shell:       kw completion bash > ~/.local/share/bash-completion/completions/kw
#
# bash inserts what a completion function answers as it is, so an object name such as
# `web$(touch x)` would run when Enter is pressed. Every answer that is not plain letters,
# digits and `._-/:,=@+%` is quoted here with `printf %q`, and the words typed so far reach kw
# with their quotes removed, as the command will receive them.

# Split $1 into words as bash would, quotes and backslashes removed, into __kw_words; the last
# word as typed goes to __kw_raw and the quote still open at the end, if any, to __kw_open.
__kw_split() {
    local line=$1 word="" raw="" open="" c next i in_word=0
    __kw_words=()
    for ((i = 0; i < ${#line}; i++)); do
        c=${line:i:1}
        next=${line:i+1:1}
        if [[ $open == "'" ]]; then
            if [[ $c == "'" ]]; then open=""; else word+=$c; fi
        elif [[ $open == '"' ]]; then
            if [[ $c == '"' ]]; then
                open=""
            elif [[ $c == '\' && $next == [\$\`\"\\] ]]; then
                word+=$next
                raw+=$c
                c=$next
                ((i++))
            else
                word+=$c
            fi
        elif [[ $c == [[:blank:]] ]]; then
            if ((in_word)); then
                __kw_words+=("$word")
            fi
            word="" raw="" in_word=0
            continue
        elif [[ $c == '\' ]]; then
            word+=$next
            raw+=$c
            c=$next
            ((i++))
        elif [[ $c == [\'\"] ]]; then
            open=$c
        else
            word+=$c
        fi
        raw+=$c
        in_word=1
    done
    # After a space, the word being completed is a new, empty one.
    __kw_words+=("$word")
    __kw_raw=$raw
    __kw_open=$open
}

_kw() {
    local __kw_words __kw_raw __kw_open
    __kw_split "${COMP_LINE:0:COMP_POINT}"
    local -a words=("${__kw_words[@]}")
    local raw=$__kw_raw open=$__kw_open
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
    local lead=""
    if [[ $raw != "$cur" && $raw == *"$cur" ]]; then
        __kw_split "${raw%"$cur"}"
        lead=${__kw_words[0]}
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
                [[ $answer == "$lead"* ]] || continue
                answer=${answer#"$lead"}
                if [[ ! $answer =~ ^[A-Za-z0-9._/:,=@+%-]+$ ]]; then
                    # Inside a quote the user opened, bash would insert the quoted form
                    # literally: offer only what needs no quoting there.
                    [[ -z $open ]] || continue
                    printf -v answer '%q' "$answer"
                fi
                COMPREPLY+=("$answer")
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
