# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_kw_global_optspecs
    string join \n v/v= h/help V/version
end

function __fish_kw_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_kw_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_kw_using_subcommand
    set -l cmd (__fish_kw_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c kw -n "__fish_kw_needs_command" -s v -l v -d 'Log level for diagnostics on stderr (kubectl\'s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted' -r
complete -c kw -n "__fish_kw_needs_command" -s h -l help -d 'Print help'
complete -c kw -n "__fish_kw_needs_command" -s V -l version -d 'Print version'
complete -c kw -n "__fish_kw_needs_command" -f -a "get" -d 'List resources, and with -w watch them for changes'
complete -c kw -n "__fish_kw_needs_command" -f -a "demo" -d 'Watch the built-in simulated cluster: `kw sim` with churn, and `kw get` against it'
complete -c kw -n "__fish_kw_needs_command" -f -a "sim" -d 'Run the simulated Kubernetes API server (for tests, benchmarks and offline scripts)'
complete -c kw -n "__fish_kw_needs_command" -f -a "completion" -d 'Print a shell completion script (bash, zsh, fish, powershell, elvish)'
complete -c kw -n "__fish_kw_needs_command" -f -a "version" -d 'Print kw\'s version and, when a cluster is reachable, the server\'s'
complete -c kw -n "__fish_kw_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kw -n "__fish_kw_using_subcommand get" -s n -l namespace -d 'Namespace to use (default: the context\'s, else `default`)' -r
complete -c kw -n "__fish_kw_using_subcommand get" -s l -l selector -d 'Label selector (`app=web,tier!=db`, `env in (a,b)`)' -r
complete -c kw -n "__fish_kw_using_subcommand get" -l field-selector -d 'Field selector (`status.phase=Running`, `spec.nodeName=node-1`)' -r
complete -c kw -n "__fish_kw_using_subcommand get" -l chunk-size -d 'Page size of the initial list; 0 lists in one request' -r
complete -c kw -n "__fish_kw_using_subcommand get" -l max-object-size -d 'Refuse any object larger than SIZE bytes (a broken or hostile server must not exhaust memory). Suffixes Ki, Mi, Gi' -r
complete -c kw -n "__fish_kw_using_subcommand get" -s f -l filename -d 'Watch the objects a manifest names (YAML or JSON, several documents; `-` reads stdin)' -r -F
complete -c kw -n "__fish_kw_using_subcommand get" -l until -d 'End the watch with exit 0 once EXPR holds: `delete`, `create`, `condition=Ready`, `condition=Available=False`, `jsonpath=\'{.status.phase}\'=Succeeded`. Repeatable: any one met ends the watch. Implies --watch; the initial list counts' -r
complete -c kw -n "__fish_kw_using_subcommand get" -l fail-on -d 'End the watch with exit 2 once EXPR holds for any watched object (same EXPRs as --until). Repeatable. Implies --watch' -r
complete -c kw -n "__fish_kw_using_subcommand get" -l for -d '`all`: --until needs every watched object (every named one, or every one the selector matches, at least one); `any`: one object suffices' -r
complete -c kw -n "__fish_kw_using_subcommand get" -l timeout -d 'Give up after DURATION (`30s`, `5m`, `1h30m`) with exit 3' -r
complete -c kw -n "__fish_kw_using_subcommand get" -l max-events -d 'Stop after N printed events (list items count), with exit 0' -r
complete -c kw -n "__fish_kw_using_subcommand get" -s o -l output -d 'Output format (default: the table printed by the server): wide, json, jsonl, yaml, name, jsonpath=TEMPLATE, jsonpath-file=FILE, jsonpath-as-json=TEMPLATE, custom-columns=SPEC, custom-columns-file=FILE. Go templates (go-template, template) are not supported' -r
complete -c kw -n "__fish_kw_using_subcommand get" -s L -l label-columns -d 'In tables, show these labels as columns (`-L app,tier`; repeatable). The header is the key\'s last `/` segment, upper-cased' -r
complete -c kw -n "__fish_kw_using_subcommand get" -l sort-by -d 'Sort the initial list by this JSONPath (`.metadata.name`, `{.status.startTime}`, as kubectl); events that arrive later are printed as they come' -r
complete -c kw -n "__fish_kw_using_subcommand get" -l timestamps -d 'kw: say when kw received each event: a TIME column in tables, a "ts" field in JSON event lines. FORMAT: rfc3339 (UTC, the default), local, or relative (since kw started)' -r -f -a "rfc3339\t''
local\t''
relative\t''"
complete -c kw -n "__fish_kw_using_subcommand get" -l color -d 'kw: colour event types, status words and headers: auto (on a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it in a pipe), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kw -n "__fish_kw_using_subcommand get" -l only -d 'kw: print only these event types (`--only added,deleted`). The initial list counts as added' -r
complete -c kw -n "__fish_kw_using_subcommand get" -l kubeconfig -d 'Path to the kubeconfig file to use (that file only; otherwise $KUBECONFIG, then ~/.kube/config)' -r -F
complete -c kw -n "__fish_kw_using_subcommand get" -l context -d 'The kubeconfig context to use' -r
complete -c kw -n "__fish_kw_using_subcommand get" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kw -n "__fish_kw_using_subcommand get" -l user -d 'The kubeconfig user to use' -r
complete -c kw -n "__fish_kw_using_subcommand get" -s s -l server -d 'The address of the API server (`https://host:port`)' -r
complete -c kw -n "__fish_kw_using_subcommand get" -l token -d 'Bearer token for authentication' -r
complete -c kw -n "__fish_kw_using_subcommand get" -l certificate-authority -d 'Path to a PEM file of CA certificates to verify the server with' -r -F
complete -c kw -n "__fish_kw_using_subcommand get" -l client-certificate -d 'Path to a PEM client certificate' -r -F
complete -c kw -n "__fish_kw_using_subcommand get" -l client-key -d 'Path to the PEM key of the client certificate' -r -F
complete -c kw -n "__fish_kw_using_subcommand get" -l tls-server-name -d 'Server name to verify the server\'s certificate against, instead of the host' -r
complete -c kw -n "__fish_kw_using_subcommand get" -l as -d 'Username to impersonate for the operation (a user or a service account)' -r
complete -c kw -n "__fish_kw_using_subcommand get" -l as-group -d 'Group to impersonate for the operation; repeat for several groups' -r
complete -c kw -n "__fish_kw_using_subcommand get" -l as-uid -d 'UID to impersonate for the operation' -r
complete -c kw -n "__fish_kw_using_subcommand get" -l request-timeout -d 'Give up on a request after this long (`30s`, `2m`; a bare number is seconds; 0 = never). Also cuts a watch after this long, as in kubectl' -r
complete -c kw -n "__fish_kw_using_subcommand get" -s v -l v -d 'Log level for diagnostics on stderr (kubectl\'s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted' -r
complete -c kw -n "__fish_kw_using_subcommand get" -s w -l watch -d 'After listing, watch for changes'
complete -c kw -n "__fish_kw_using_subcommand get" -l watch-only -d 'Watch for changes without printing the initial list'
complete -c kw -n "__fish_kw_using_subcommand get" -s A -l all-namespaces -d 'List and watch across all namespaces'
complete -c kw -n "__fish_kw_using_subcommand get" -l output-watch-events -d 'With -w/--watch-only, say the type of each event (ADDED/MODIFIED/DELETED)'
complete -c kw -n "__fish_kw_using_subcommand get" -l no-headers -d 'Do not print table headers'
complete -c kw -n "__fish_kw_using_subcommand get" -l show-kind -d 'Put the kind in front of each name (`pod/web-1`); always on for several types'
complete -c kw -n "__fish_kw_using_subcommand get" -l show-managed-fields -d 'Keep metadata.managedFields in -o json and -o yaml output (kubectl drops them by default)'
complete -c kw -n "__fish_kw_using_subcommand get" -l show-labels -d 'In tables, show all labels as the last column (LABELS)'
complete -c kw -n "__fish_kw_using_subcommand get" -l diff -d 'kw: under each MODIFIED row, the fields that changed since kw last saw the object (`status.phase: Pending → Running`; a "diff" field of RFC 6902 operations in JSON event lines). resourceVersion, managedFields and generation are ignored. kw keeps the last version of every watched object in memory to compare with'
complete -c kw -n "__fish_kw_using_subcommand get" -l ignore-unchanged -d 'kw: do not print a MODIFIED event whose visible row (or, in other formats, the object without resourceVersion, managedFields and generation) is the same as the last one printed for that object: node heartbeats, status-only churn. Off by default, as kubectl'
complete -c kw -n "__fish_kw_using_subcommand get" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate. Insecure: kw warns every time'
complete -c kw -n "__fish_kw_using_subcommand get" -s h -l help -d 'Print help'
complete -c kw -n "__fish_kw_using_subcommand get" -s V -l version -d 'Print version'
complete -c kw -n "__fish_kw_using_subcommand demo" -l churn -d 'Events per second the simulated cluster produces' -r
complete -c kw -n "__fish_kw_using_subcommand demo" -l seed -d 'Seed for the simulated cluster\'s churn (the same seed, the same story)' -r
complete -c kw -n "__fish_kw_using_subcommand demo" -s v -l v -d 'Log level for diagnostics on stderr (kubectl\'s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted' -r
complete -c kw -n "__fish_kw_using_subcommand demo" -s h -l help -d 'Print help'
complete -c kw -n "__fish_kw_using_subcommand demo" -s V -l version -d 'Print version'
complete -c kw -n "__fish_kw_using_subcommand sim" -l port -d 'Port to listen on (127.0.0.1); 0 picks a free one' -r
complete -c kw -n "__fish_kw_using_subcommand sim" -l seed -d 'Seed of the initial world and of churn (same seed, same story)' -r
complete -c kw -n "__fish_kw_using_subcommand sim" -l churn -d 'Churn: mutations per second (e.g. 2, 0.5, 500)' -r
complete -c kw -n "__fish_kw_using_subcommand sim" -l history -d 'Watch events kept for resume; resuming from an older resourceVersion gets 410 Expired' -r
complete -c kw -n "__fish_kw_using_subcommand sim" -l bookmark-interval -d 'Seconds between BOOKMARK events on watches that allow them' -r
complete -c kw -n "__fish_kw_using_subcommand sim" -l max-watch-secs -d 'End every watch after SECS at the latest, as a real server\'s --min-request-timeout does' -r
complete -c kw -n "__fish_kw_using_subcommand sim" -l clock -d 'Freeze "now" at this RFC 3339 time (AGE cells, creationTimestamps), for golden files' -r
complete -c kw -n "__fish_kw_using_subcommand sim" -l kubeconfig-out -d 'Write a kubeconfig for this server to PATH (contexts sim, sim-cert, sim-limited, sim-bad-token)' -r -F
complete -c kw -n "__fish_kw_using_subcommand sim" -l fault-close-after -d 'Drop the TCP connection after N watch events (no terminating chunk)' -r
complete -c kw -n "__fish_kw_using_subcommand sim" -l fault-cut-after -d 'Send half of watch event N+1\'s chunk, then drop the connection' -r
complete -c kw -n "__fish_kw_using_subcommand sim" -l fault-expire-after -d 'After N watch events send a 410 Expired ERROR event and end the stream' -r
complete -c kw -n "__fish_kw_using_subcommand sim" -l fault-stall-after -d 'After N watch events stop sending, keeping the connection open --fault-stall-secs seconds' -r
complete -c kw -n "__fish_kw_using_subcommand sim" -l fault-stall-secs -d 'How long a stalled watch stays open' -r
complete -c kw -n "__fish_kw_using_subcommand sim" -l fault-list-status -d 'Answer the next --fault-list-count LIST requests with this HTTP status (429, 500, 503...)' -r
complete -c kw -n "__fish_kw_using_subcommand sim" -l fault-list-count -d 'How many LIST requests --fault-list-status applies to' -r
complete -c kw -n "__fish_kw_using_subcommand sim" -l fault-watch-status -d 'Answer WATCH requests themselves with this HTTP status (e.g. 410), --fault-times times' -r
complete -c kw -n "__fish_kw_using_subcommand sim" -l fault-invalid-json-after -d 'After N watch events send a line that is not JSON' -r
complete -c kw -n "__fish_kw_using_subcommand sim" -l fault-huge-object-bytes -d 'Pad the first event of each watch with an annotation of B bytes' -r
complete -c kw -n "__fish_kw_using_subcommand sim" -l fault-times -d 'Each watch fault fires for the first K watch connections only (default: all)' -r
complete -c kw -n "__fish_kw_using_subcommand sim" -l flood -d 'Flood mode: every pods WATCH streams N pre-serialised MODIFIED events, then ends' -r
complete -c kw -n "__fish_kw_using_subcommand sim" -l flood-list -d 'Flood mode: the pods LIST returns M pods (paged with limit/continue)' -r
complete -c kw -n "__fish_kw_using_subcommand sim" -s v -l v -d 'Log level for diagnostics on stderr (kubectl\'s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted' -r
complete -c kw -n "__fish_kw_using_subcommand sim" -l http -d 'Serve plain HTTP instead of HTTPS (benchmarks)'
complete -c kw -n "__fish_kw_using_subcommand sim" -l empty -d 'Start with namespaces only, no seed objects'
complete -c kw -n "__fish_kw_using_subcommand sim" -l no-tables -d 'Do not offer server-side printing (Tables): answer plain JSON, or 406 when only a Table is acceptable, like an aggregated API server that cannot print'
complete -c kw -n "__fish_kw_using_subcommand sim" -l flood-batched -d 'Flood mode: pack many events into each ~256 KiB HTTP chunk instead of one chunk per event as kube-apiserver sends them (a "server is never the bottleneck" ceiling)'
complete -c kw -n "__fish_kw_using_subcommand sim" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kw -n "__fish_kw_using_subcommand sim" -s V -l version -d 'Print version'
complete -c kw -n "__fish_kw_using_subcommand completion" -s v -l v -d 'Log level for diagnostics on stderr (kubectl\'s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted' -r
complete -c kw -n "__fish_kw_using_subcommand completion" -s h -l help -d 'Print help'
complete -c kw -n "__fish_kw_using_subcommand completion" -s V -l version -d 'Print version'
complete -c kw -n "__fish_kw_using_subcommand version" -l kubeconfig -d 'Path to the kubeconfig file to use (that file only; otherwise $KUBECONFIG, then ~/.kube/config)' -r -F
complete -c kw -n "__fish_kw_using_subcommand version" -l context -d 'The kubeconfig context to use' -r
complete -c kw -n "__fish_kw_using_subcommand version" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kw -n "__fish_kw_using_subcommand version" -l user -d 'The kubeconfig user to use' -r
complete -c kw -n "__fish_kw_using_subcommand version" -s s -l server -d 'The address of the API server (`https://host:port`)' -r
complete -c kw -n "__fish_kw_using_subcommand version" -l token -d 'Bearer token for authentication' -r
complete -c kw -n "__fish_kw_using_subcommand version" -l certificate-authority -d 'Path to a PEM file of CA certificates to verify the server with' -r -F
complete -c kw -n "__fish_kw_using_subcommand version" -l client-certificate -d 'Path to a PEM client certificate' -r -F
complete -c kw -n "__fish_kw_using_subcommand version" -l client-key -d 'Path to the PEM key of the client certificate' -r -F
complete -c kw -n "__fish_kw_using_subcommand version" -l tls-server-name -d 'Server name to verify the server\'s certificate against, instead of the host' -r
complete -c kw -n "__fish_kw_using_subcommand version" -l as -d 'Username to impersonate for the operation (a user or a service account)' -r
complete -c kw -n "__fish_kw_using_subcommand version" -l as-group -d 'Group to impersonate for the operation; repeat for several groups' -r
complete -c kw -n "__fish_kw_using_subcommand version" -l as-uid -d 'UID to impersonate for the operation' -r
complete -c kw -n "__fish_kw_using_subcommand version" -l request-timeout -d 'Give up on a request after this long (`30s`, `2m`; a bare number is seconds; 0 = never). Also cuts a watch after this long, as in kubectl' -r
complete -c kw -n "__fish_kw_using_subcommand version" -s v -l v -d 'Log level for diagnostics on stderr (kubectl\'s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted' -r
complete -c kw -n "__fish_kw_using_subcommand version" -l client -d 'Print only kw\'s version; do not ask the server'
complete -c kw -n "__fish_kw_using_subcommand version" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate. Insecure: kw warns every time'
complete -c kw -n "__fish_kw_using_subcommand version" -s h -l help -d 'Print help'
complete -c kw -n "__fish_kw_using_subcommand version" -s V -l version -d 'Print version'
complete -c kw -n "__fish_kw_using_subcommand help; and not __fish_seen_subcommand_from get demo sim completion version help" -f -a "get" -d 'List resources, and with -w watch them for changes'
complete -c kw -n "__fish_kw_using_subcommand help; and not __fish_seen_subcommand_from get demo sim completion version help" -f -a "demo" -d 'Watch the built-in simulated cluster: `kw sim` with churn, and `kw get` against it'
complete -c kw -n "__fish_kw_using_subcommand help; and not __fish_seen_subcommand_from get demo sim completion version help" -f -a "sim" -d 'Run the simulated Kubernetes API server (for tests, benchmarks and offline scripts)'
complete -c kw -n "__fish_kw_using_subcommand help; and not __fish_seen_subcommand_from get demo sim completion version help" -f -a "completion" -d 'Print a shell completion script (bash, zsh, fish, powershell, elvish)'
complete -c kw -n "__fish_kw_using_subcommand help; and not __fish_seen_subcommand_from get demo sim completion version help" -f -a "version" -d 'Print kw\'s version and, when a cluster is reachable, the server\'s'
complete -c kw -n "__fish_kw_using_subcommand help; and not __fish_seen_subcommand_from get demo sim completion version help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
