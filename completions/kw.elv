
use builtin;
use str;

set edit:completion:arg-completer[kw] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'kw'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'kw'= {
            cand -v 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted'
            cand --v 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand get 'List resources, and with -w watch them for changes'
            cand demo 'Watch the built-in simulated cluster: `kw sim` with churn, and `kw get` against it'
            cand sim 'Run the simulated Kubernetes API server (for tests, benchmarks and offline scripts)'
            cand completion 'Print a shell completion script (bash, zsh, fish, powershell, elvish)'
            cand version 'Print kw''s version and, when a cluster is reachable, the server''s'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'kw;get'= {
            cand -n 'Namespace to use (default: the context''s, else `default`)'
            cand --namespace 'Namespace to use (default: the context''s, else `default`)'
            cand -l 'Label selector (`app=web,tier!=db`, `env in (a,b)`)'
            cand --selector 'Label selector (`app=web,tier!=db`, `env in (a,b)`)'
            cand --field-selector 'Field selector (`status.phase=Running`, `spec.nodeName=node-1`)'
            cand --chunk-size 'Page size of the initial list; 0 lists in one request'
            cand --max-object-size 'Refuse any object larger than SIZE bytes (a broken or hostile server must not exhaust memory). Suffixes Ki, Mi, Gi'
            cand -f 'Watch the objects a manifest names (YAML or JSON, several documents; `-` reads stdin)'
            cand --filename 'Watch the objects a manifest names (YAML or JSON, several documents; `-` reads stdin)'
            cand --until 'End the watch with exit 0 once EXPR holds: `delete`, `create`, `condition=Ready`, `condition=Available=False`, `jsonpath=''{.status.phase}''=Succeeded`. Repeatable: any one met ends the watch. Implies --watch; the initial list counts'
            cand --fail-on 'End the watch with exit 2 once EXPR holds for any watched object (same EXPRs as --until). Repeatable. Implies --watch'
            cand --for '`all`: --until needs every watched object (every named one, or every one the selector matches, at least one); `any`: one object suffices'
            cand --timeout 'Give up after DURATION (`30s`, `5m`, `1h30m`) with exit 3'
            cand --max-events 'Stop after N printed events (list items count), with exit 0'
            cand -o 'Output format (default: the table printed by the server): wide, json, jsonl, yaml, name, jsonpath=TEMPLATE, jsonpath-file=FILE, jsonpath-as-json=TEMPLATE, custom-columns=SPEC, custom-columns-file=FILE. Go templates (go-template, template) are not supported'
            cand --output 'Output format (default: the table printed by the server): wide, json, jsonl, yaml, name, jsonpath=TEMPLATE, jsonpath-file=FILE, jsonpath-as-json=TEMPLATE, custom-columns=SPEC, custom-columns-file=FILE. Go templates (go-template, template) are not supported'
            cand -L 'In tables, show these labels as columns (`-L app,tier`; repeatable). The header is the key''s last `/` segment, upper-cased'
            cand --label-columns 'In tables, show these labels as columns (`-L app,tier`; repeatable). The header is the key''s last `/` segment, upper-cased'
            cand --sort-by 'Sort the initial list by this JSONPath (`.metadata.name`, `{.status.startTime}`, as kubectl); events that arrive later are printed as they come'
            cand --timestamps 'kw: say when kw received each event: a TIME column in tables, a "ts" field in JSON event lines. FORMAT: rfc3339 (UTC, the default), local, or relative (since kw started)'
            cand --color 'kw: colour event types, status words and headers: auto (on a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it in a pipe), always, never'
            cand --only 'kw: print only these event types (`--only added,deleted`). The initial list counts as added'
            cand --kubeconfig 'Path to the kubeconfig file to use (that file only; otherwise $KUBECONFIG, then ~/.kube/config)'
            cand --context 'The kubeconfig context to use'
            cand --cluster 'The kubeconfig cluster to use'
            cand --user 'The kubeconfig user to use'
            cand -s 'The address of the API server (`https://host:port`)'
            cand --server 'The address of the API server (`https://host:port`)'
            cand --token 'Bearer token for authentication'
            cand --certificate-authority 'Path to a PEM file of CA certificates to verify the server with'
            cand --client-certificate 'Path to a PEM client certificate'
            cand --client-key 'Path to the PEM key of the client certificate'
            cand --tls-server-name 'Server name to verify the server''s certificate against, instead of the host'
            cand --as 'Username to impersonate for the operation (a user or a service account)'
            cand --as-group 'Group to impersonate for the operation; repeat for several groups'
            cand --as-uid 'UID to impersonate for the operation'
            cand --request-timeout 'Give up on a request after this long (`30s`, `2m`; a bare number is seconds; 0 = never). Also cuts a watch after this long, as in kubectl'
            cand -v 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted'
            cand --v 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted'
            cand -w 'After listing, watch for changes'
            cand --watch 'After listing, watch for changes'
            cand --watch-only 'Watch for changes without printing the initial list'
            cand -A 'List and watch across all namespaces'
            cand --all-namespaces 'List and watch across all namespaces'
            cand --output-watch-events 'With -w/--watch-only, say the type of each event (ADDED/MODIFIED/DELETED)'
            cand --no-headers 'Do not print table headers'
            cand --show-kind 'Put the kind in front of each name (`pod/web-1`); always on for several types'
            cand --show-managed-fields 'Keep metadata.managedFields in -o json and -o yaml output (kubectl drops them by default)'
            cand --show-labels 'In tables, show all labels as the last column (LABELS)'
            cand --diff 'kw: under each MODIFIED row, the fields that changed since kw last saw the object (`status.phase: Pending → Running`; a "diff" field of RFC 6902 operations in JSON event lines). resourceVersion, managedFields and generation are ignored. kw keeps the last version of every watched object in memory to compare with'
            cand --ignore-unchanged 'kw: do not print a MODIFIED event whose visible row (or, in other formats, the object without resourceVersion, managedFields and generation) is the same as the last one printed for that object: node heartbeats, status-only churn. Off by default, as kubectl'
            cand --insecure-skip-tls-verify 'Do not verify the server''s certificate. Insecure: kw warns every time'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kw;demo'= {
            cand --churn 'Events per second the simulated cluster produces'
            cand --seed 'Seed for the simulated cluster''s churn (the same seed, the same story)'
            cand -v 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted'
            cand --v 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kw;sim'= {
            cand --port 'Port to listen on (127.0.0.1); 0 picks a free one'
            cand --seed 'Seed of the initial world and of churn (same seed, same story)'
            cand --churn 'Churn: mutations per second (e.g. 2, 0.5, 500)'
            cand --history 'Watch events kept for resume; resuming from an older resourceVersion gets 410 Expired'
            cand --bookmark-interval 'Seconds between BOOKMARK events on watches that allow them'
            cand --max-watch-secs 'End every watch after SECS at the latest, as a real server''s --min-request-timeout does'
            cand --clock 'Freeze "now" at this RFC 3339 time (AGE cells, creationTimestamps), for golden files'
            cand --kubeconfig-out 'Write a kubeconfig for this server to PATH (contexts sim, sim-cert, sim-limited, sim-bad-token)'
            cand --fault-close-after 'Drop the TCP connection after N watch events (no terminating chunk)'
            cand --fault-cut-after 'Send half of watch event N+1''s chunk, then drop the connection'
            cand --fault-expire-after 'After N watch events send a 410 Expired ERROR event and end the stream'
            cand --fault-stall-after 'After N watch events stop sending, keeping the connection open --fault-stall-secs seconds'
            cand --fault-stall-secs 'How long a stalled watch stays open'
            cand --fault-list-status 'Answer the next --fault-list-count LIST requests with this HTTP status (429, 500, 503...)'
            cand --fault-list-count 'How many LIST requests --fault-list-status applies to'
            cand --fault-watch-status 'Answer WATCH requests themselves with this HTTP status (e.g. 410), --fault-times times'
            cand --fault-invalid-json-after 'After N watch events send a line that is not JSON'
            cand --fault-huge-object-bytes 'Pad the first event of each watch with an annotation of B bytes'
            cand --fault-times 'Each watch fault fires for the first K watch connections only (default: all)'
            cand --flood 'Flood mode: every pods WATCH streams N pre-serialised MODIFIED events, then ends'
            cand --flood-list 'Flood mode: the pods LIST returns M pods (paged with limit/continue)'
            cand -v 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted'
            cand --v 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted'
            cand --http 'Serve plain HTTP instead of HTTPS (benchmarks)'
            cand --empty 'Start with namespaces only, no seed objects'
            cand --no-tables 'Do not offer server-side printing (Tables): answer plain JSON, or 406 when only a Table is acceptable, like an aggregated API server that cannot print'
            cand --flood-batched 'Flood mode: pack many events into each ~256 KiB HTTP chunk instead of one chunk per event as kube-apiserver sends them (a "server is never the bottleneck" ceiling)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kw;completion'= {
            cand -v 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted'
            cand --v 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kw;version'= {
            cand --kubeconfig 'Path to the kubeconfig file to use (that file only; otherwise $KUBECONFIG, then ~/.kube/config)'
            cand --context 'The kubeconfig context to use'
            cand --cluster 'The kubeconfig cluster to use'
            cand --user 'The kubeconfig user to use'
            cand -s 'The address of the API server (`https://host:port`)'
            cand --server 'The address of the API server (`https://host:port`)'
            cand --token 'Bearer token for authentication'
            cand --certificate-authority 'Path to a PEM file of CA certificates to verify the server with'
            cand --client-certificate 'Path to a PEM client certificate'
            cand --client-key 'Path to the PEM key of the client certificate'
            cand --tls-server-name 'Server name to verify the server''s certificate against, instead of the host'
            cand --as 'Username to impersonate for the operation (a user or a service account)'
            cand --as-group 'Group to impersonate for the operation; repeat for several groups'
            cand --as-uid 'UID to impersonate for the operation'
            cand --request-timeout 'Give up on a request after this long (`30s`, `2m`; a bare number is seconds; 0 = never). Also cuts a watch after this long, as in kubectl'
            cand -v 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted'
            cand --v 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted'
            cand --client 'Print only kw''s version; do not ask the server'
            cand --insecure-skip-tls-verify 'Do not verify the server''s certificate. Insecure: kw warns every time'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'kw;help'= {
            cand get 'List resources, and with -w watch them for changes'
            cand demo 'Watch the built-in simulated cluster: `kw sim` with churn, and `kw get` against it'
            cand sim 'Run the simulated Kubernetes API server (for tests, benchmarks and offline scripts)'
            cand completion 'Print a shell completion script (bash, zsh, fish, powershell, elvish)'
            cand version 'Print kw''s version and, when a cluster is reachable, the server''s'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'kw;help;get'= {
        }
        &'kw;help;demo'= {
        }
        &'kw;help;sim'= {
        }
        &'kw;help;completion'= {
        }
        &'kw;help;version'= {
        }
        &'kw;help;help'= {
        }
    ]
    $completions[$command]
}
