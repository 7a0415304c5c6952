# fish completion for kw. Printed by `kw completion fish`. On TAB it asks kw itself what fits
# (`kw __complete`), so it always knows this kw's flags and the cluster's resource types,
# objects and namespaces, and the kubeconfig's contexts, clusters and users. It never changes
# when kw does.
#
# fish quotes what it inserts, so an object named `web$(touch x)` reaches the line escaped.
#
# Enable it:   kw completion fish > ~/.config/fish/completions/kw.fish
#        or:   kw completion fish | source

function __kw_complete
    set -l words (commandline -opc)
    # The token under the cursor as typed (`web\$\(t`): kw wants it as the command will get it.
    set -l current (commandline -ct | string unescape)
    set -l kw $words[1]
    command -q -- $kw; or set kw kw
    set -l answers ($kw __complete -- $words[2..-1] "$current" 2>/dev/null </dev/null)
    if test "$answers[1]" = :files
        __fish_complete_path "$current"
        return
    end
    printf '%s\n' $answers
end

complete -c kw -f -a '(__kw_complete)'
