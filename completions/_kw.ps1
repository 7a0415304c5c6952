
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'kw' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'kw'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'kw' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace to use (default: the context''s, else `default`); a comma list or globs (`-n web,api`, `-n ''team-*''`) choose several, laid out as with -A')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace to use (default: the context''s, else `default`); a comma list or globs (`-n web,api`, `-n ''team-*''`) choose several, laid out as with -A')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (that file only; otherwise $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use; a comma list or globs (`--context eu,us`, `--context ''prod-*''`) watch several clusters at once, merged into one stream with a CONTEXT column')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the API server (`https://host:port`)')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the API server (`https://host:port`)')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a PEM file of CA certificates to verify the server with')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a PEM client certificate')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to the PEM key of the client certificate')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to verify the server''s certificate against, instead of the host')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate. Insecure: kw warns every time')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'Username to impersonate for the operation (a user or a service account)')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate for the operation; repeat for several groups')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate for the operation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this long (`30s`, `2m`; a bare number is seconds; 0 = never). Also cuts a watch after this long, as in kubectl')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'Write the verdict of a wait (get --until, rollout status, wait) for the CI too, as well as on stderr (repeatable): github (step summary, annotations, outputs; on under GITHUB_ACTIONS=true), gitlab (a collapsible section; on under GITLAB_CI=true), junit=FILE, json=FILE, or none (also KW_REPORT=none)')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'The kuberc to read preferences (defaults, aliases, credentialPluginPolicy) from, as kubectl does: else $KUBERC, else ~/.kube/kuberc; KUBERC=off or KUBECTL_KUBERC=false reads none')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig at once (as --context with all their names)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'List resources, and with -w watch them for changes')
            [CompletionResult]::new('demo', 'demo', [CompletionResultType]::ParameterValue, 'Watch the built-in simulated cluster: `kw sim` with churn, and `kw get` against it')
            [CompletionResult]::new('sim', 'sim', [CompletionResultType]::ParameterValue, 'Run the simulated Kubernetes API server (for tests, benchmarks and offline scripts; `kw sim --help` lists its flags)')
            [CompletionResult]::new('completion', 'completion', [CompletionResultType]::ParameterValue, 'Print a shell completion script (bash, zsh, fish, powershell, elvish)')
            [CompletionResult]::new('logs', 'logs', [CompletionResultType]::ParameterValue, 'Print the logs of a Pod''s containers, as `kubectl logs` (its lines on stdout, byte for byte); -f follows them until the containers end')
            [CompletionResult]::new('version', 'version', [CompletionResultType]::ParameterValue, 'Print kw''s version and, when a cluster is reachable, the server''s')
            [CompletionResult]::new('rollout', 'rollout', [CompletionResultType]::ParameterValue, 'Manage the rollout of a resource (kubectl''s `rollout`): `status`; the others go to kubectl')
            [CompletionResult]::new('wait', 'wait', [CompletionResultType]::ParameterValue, 'Wait for a condition on one or many resources, as `kubectl wait` (its lines on stdout, byte for byte)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kw;get' {
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Label selector (`app=web,tier!=db`)')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'Label selector (`app=web,tier!=db`)')
            [CompletionResult]::new('--field-selector', '--field-selector', [CompletionResultType]::ParameterName, 'Field selector (`status.phase=Running`)')
            [CompletionResult]::new('--chunk-size', '--chunk-size', [CompletionResultType]::ParameterName, 'Page size of the initial list')
            [CompletionResult]::new('--max-object-size', '--max-object-size', [CompletionResultType]::ParameterName, 'Largest object accepted')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Watch the objects of a manifest (`-`: stdin)')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Watch the objects of a manifest (`-`: stdin)')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'End with exit 0 once EXPR holds (e.g. `ready`)')
            [CompletionResult]::new('--fail-on', '--fail-on', [CompletionResultType]::ParameterName, 'End with exit 2 once EXPR holds (e.g. `failed`)')
            [CompletionResult]::new('--for', '--for', [CompletionResultType]::ParameterName, '--until: `all` objects or `any`')
            [CompletionResult]::new('--fail-grace', '--fail-grace', [CompletionResultType]::ParameterName, 'Time a Pod may stay stuck')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up after DURATION with exit 3')
            [CompletionResult]::new('--max-events', '--max-events', [CompletionResultType]::ParameterName, 'Stop after N printed events, with exit 0')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Format: wide, json, jsonl, yaml, name, ...')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Format: wide, json, jsonl, yaml, name, ...')
            [CompletionResult]::new('--template', '--template', [CompletionResultType]::ParameterName, 'The Go template of -o go-template; alone, it means -o go-template=TEMPLATE')
            [CompletionResult]::new('--allow-missing-template-keys', '--allow-missing-template-keys', [CompletionResultType]::ParameterName, 'With =false, a jsonpath or go-template key an object lacks is an error')
            [CompletionResult]::new('--server-print', '--server-print', [CompletionResultType]::ParameterName, 'With =false, kw lays tables out itself: NAME and AGE')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'Show these labels as columns (`-L app,tier`)')
            [CompletionResult]::new('--label-columns', '--label-columns', [CompletionResultType]::ParameterName, 'Show these labels as columns (`-L app,tier`)')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort the initial list by this JSONPath')
            [CompletionResult]::new('--timestamps', '--timestamps', [CompletionResultType]::ParameterName, 'Time kw got each event: rfc3339|local|relative')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto|always|never')
            [CompletionResult]::new('--diff', '--diff', [CompletionResultType]::ParameterName, 'Changed fields under MODIFIED rows: brief|all')
            [CompletionResult]::new('--only', '--only', [CompletionResultType]::ParameterName, 'Print only these event types (`added,deleted`)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace to use (default: the context''s, else `default`); a comma list or globs (`-n web,api`, `-n ''team-*''`) choose several, laid out as with -A')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace to use (default: the context''s, else `default`); a comma list or globs (`-n web,api`, `-n ''team-*''`) choose several, laid out as with -A')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (that file only; otherwise $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use; a comma list or globs (`--context eu,us`, `--context ''prod-*''`) watch several clusters at once, merged into one stream with a CONTEXT column')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the API server (`https://host:port`)')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the API server (`https://host:port`)')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a PEM file of CA certificates to verify the server with')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a PEM client certificate')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to the PEM key of the client certificate')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to verify the server''s certificate against, instead of the host')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate. Insecure: kw warns every time')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'Username to impersonate for the operation (a user or a service account)')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate for the operation; repeat for several groups')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate for the operation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this long (`30s`, `2m`; a bare number is seconds; 0 = never). Also cuts a watch after this long, as in kubectl')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'Write the verdict of a wait (get --until, rollout status, wait) for the CI too, as well as on stderr (repeatable): github (step summary, annotations, outputs; on under GITHUB_ACTIONS=true), gitlab (a collapsible section; on under GITLAB_CI=true), junit=FILE, json=FILE, or none (also KW_REPORT=none)')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'The kuberc to read preferences (defaults, aliases, credentialPluginPolicy) from, as kubectl does: else $KUBERC, else ~/.kube/kuberc; KUBERC=off or KUBECTL_KUBERC=false reads none')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'After listing, watch for changes')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'After listing, watch for changes')
            [CompletionResult]::new('--watch-only', '--watch-only', [CompletionResultType]::ParameterName, 'Watch without printing the initial list')
            [CompletionResult]::new('--live', '--live', [CompletionResultType]::ParameterName, 'Redraw the current state in place (terminal)')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'List and watch across all namespaces')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'List and watch across all namespaces')
            [CompletionResult]::new('--ignore-not-found', '--ignore-not-found', [CompletionResultType]::ParameterName, 'Say nothing of named objects that do not exist')
            [CompletionResult]::new('-R', '-R ', [CompletionResultType]::ParameterName, 'Read -f''s directories with their subdirectories')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Read -f''s directories with their subdirectories')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Say nothing on stderr about why a wait goes on')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Say nothing on stderr about why a wait goes on')
            [CompletionResult]::new('--output-watch-events', '--output-watch-events', [CompletionResultType]::ParameterName, 'Say each event''s type (ADDED/MODIFIED/DELETED)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Do not print table headers')
            [CompletionResult]::new('--show-kind', '--show-kind', [CompletionResultType]::ParameterName, 'Put the kind before each name (`pod/web-1`)')
            [CompletionResult]::new('--show-managed-fields', '--show-managed-fields', [CompletionResultType]::ParameterName, 'Keep metadata.managedFields in -o json|yaml')
            [CompletionResult]::new('--show-labels', '--show-labels', [CompletionResultType]::ParameterName, 'Show all labels as a last column (LABELS)')
            [CompletionResult]::new('--ignore-unchanged', '--ignore-unchanged', [CompletionResultType]::ParameterName, 'Skip MODIFIED events that change nothing shown')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig at once (as --context with all their names)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kw;demo' {
            [CompletionResult]::new('--churn', '--churn', [CompletionResultType]::ParameterName, 'Events per second the simulated cluster produces')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed for the simulated cluster''s churn (the same seed, the same story)')
            [CompletionResult]::new('--rollout', '--rollout', [CompletionResultType]::ParameterName, 'Act out a rollout in namespace default as the demo starts: PLOT is completes, image-pull, crash-loop, job-completes or job-fails; NAME defaults to PLOT. Repeatable. Try `kw demo --rollout image-pull:shop -- deploy/shop --until ready --fail-on failed`')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace to use (default: the context''s, else `default`); a comma list or globs (`-n web,api`, `-n ''team-*''`) choose several, laid out as with -A')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace to use (default: the context''s, else `default`); a comma list or globs (`-n web,api`, `-n ''team-*''`) choose several, laid out as with -A')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (that file only; otherwise $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use; a comma list or globs (`--context eu,us`, `--context ''prod-*''`) watch several clusters at once, merged into one stream with a CONTEXT column')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the API server (`https://host:port`)')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the API server (`https://host:port`)')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a PEM file of CA certificates to verify the server with')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a PEM client certificate')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to the PEM key of the client certificate')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to verify the server''s certificate against, instead of the host')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate. Insecure: kw warns every time')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'Username to impersonate for the operation (a user or a service account)')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate for the operation; repeat for several groups')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate for the operation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this long (`30s`, `2m`; a bare number is seconds; 0 = never). Also cuts a watch after this long, as in kubectl')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'Write the verdict of a wait (get --until, rollout status, wait) for the CI too, as well as on stderr (repeatable): github (step summary, annotations, outputs; on under GITHUB_ACTIONS=true), gitlab (a collapsible section; on under GITLAB_CI=true), junit=FILE, json=FILE, or none (also KW_REPORT=none)')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'The kuberc to read preferences (defaults, aliases, credentialPluginPolicy) from, as kubectl does: else $KUBERC, else ~/.kube/kuberc; KUBERC=off or KUBECTL_KUBERC=false reads none')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig at once (as --context with all their names)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kw;sim' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace to use (default: the context''s, else `default`); a comma list or globs (`-n web,api`, `-n ''team-*''`) choose several, laid out as with -A')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace to use (default: the context''s, else `default`); a comma list or globs (`-n web,api`, `-n ''team-*''`) choose several, laid out as with -A')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (that file only; otherwise $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use; a comma list or globs (`--context eu,us`, `--context ''prod-*''`) watch several clusters at once, merged into one stream with a CONTEXT column')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the API server (`https://host:port`)')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the API server (`https://host:port`)')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a PEM file of CA certificates to verify the server with')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a PEM client certificate')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to the PEM key of the client certificate')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to verify the server''s certificate against, instead of the host')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate. Insecure: kw warns every time')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'Username to impersonate for the operation (a user or a service account)')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate for the operation; repeat for several groups')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate for the operation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this long (`30s`, `2m`; a bare number is seconds; 0 = never). Also cuts a watch after this long, as in kubectl')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'Write the verdict of a wait (get --until, rollout status, wait) for the CI too, as well as on stderr (repeatable): github (step summary, annotations, outputs; on under GITHUB_ACTIONS=true), gitlab (a collapsible section; on under GITLAB_CI=true), junit=FILE, json=FILE, or none (also KW_REPORT=none)')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'The kuberc to read preferences (defaults, aliases, credentialPluginPolicy) from, as kubectl does: else $KUBERC, else ~/.kube/kuberc; KUBERC=off or KUBECTL_KUBERC=false reads none')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig at once (as --context with all their names)')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kw;completion' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace to use (default: the context''s, else `default`); a comma list or globs (`-n web,api`, `-n ''team-*''`) choose several, laid out as with -A')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace to use (default: the context''s, else `default`); a comma list or globs (`-n web,api`, `-n ''team-*''`) choose several, laid out as with -A')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (that file only; otherwise $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use; a comma list or globs (`--context eu,us`, `--context ''prod-*''`) watch several clusters at once, merged into one stream with a CONTEXT column')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the API server (`https://host:port`)')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the API server (`https://host:port`)')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a PEM file of CA certificates to verify the server with')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a PEM client certificate')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to the PEM key of the client certificate')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to verify the server''s certificate against, instead of the host')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate. Insecure: kw warns every time')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'Username to impersonate for the operation (a user or a service account)')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate for the operation; repeat for several groups')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate for the operation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this long (`30s`, `2m`; a bare number is seconds; 0 = never). Also cuts a watch after this long, as in kubectl')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'Write the verdict of a wait (get --until, rollout status, wait) for the CI too, as well as on stderr (repeatable): github (step summary, annotations, outputs; on under GITHUB_ACTIONS=true), gitlab (a collapsible section; on under GITLAB_CI=true), junit=FILE, json=FILE, or none (also KW_REPORT=none)')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'The kuberc to read preferences (defaults, aliases, credentialPluginPolicy) from, as kubectl does: else $KUBERC, else ~/.kube/kuberc; KUBERC=off or KUBECTL_KUBERC=false reads none')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig at once (as --context with all their names)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kw;logs' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Print the logs of this container')
            [CompletionResult]::new('--container', '--container', [CompletionResultType]::ParameterName, 'Print the logs of this container')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Selector (label query) to filter on (`app=web,tier!=db`)')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'Selector (label query) to filter on (`app=web,tier!=db`)')
            [CompletionResult]::new('--tail', '--tail', [CompletionResultType]::ParameterName, 'Lines of recent log file to display. Defaults to -1 with no selector, showing all log lines otherwise 10, if a selector is provided')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only return logs newer than a relative duration like 5s, 2m, or 3h')
            [CompletionResult]::new('--since-time', '--since-time', [CompletionResultType]::ParameterName, 'Only return logs after a specific date (RFC3339)')
            [CompletionResult]::new('--limit-bytes', '--limit-bytes', [CompletionResultType]::ParameterName, 'Maximum bytes of logs to return. Defaults to no limit')
            [CompletionResult]::new('--max-log-requests', '--max-log-requests', [CompletionResultType]::ParameterName, 'Specify maximum number of concurrent logs to follow when using by a selector')
            [CompletionResult]::new('--pod-running-timeout', '--pod-running-timeout', [CompletionResultType]::ParameterName, 'The length of time (like 5s, 2m, or 3h, higher than zero) to wait until at least one pod is running')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace to use (default: the context''s, else `default`); a comma list or globs (`-n web,api`, `-n ''team-*''`) choose several, laid out as with -A')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace to use (default: the context''s, else `default`); a comma list or globs (`-n web,api`, `-n ''team-*''`) choose several, laid out as with -A')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (that file only; otherwise $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use; a comma list or globs (`--context eu,us`, `--context ''prod-*''`) watch several clusters at once, merged into one stream with a CONTEXT column')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the API server (`https://host:port`)')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the API server (`https://host:port`)')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a PEM file of CA certificates to verify the server with')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a PEM client certificate')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to the PEM key of the client certificate')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to verify the server''s certificate against, instead of the host')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate. Insecure: kw warns every time')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'Username to impersonate for the operation (a user or a service account)')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate for the operation; repeat for several groups')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate for the operation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this long (`30s`, `2m`; a bare number is seconds; 0 = never). Also cuts a watch after this long, as in kubectl')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'Write the verdict of a wait (get --until, rollout status, wait) for the CI too, as well as on stderr (repeatable): github (step summary, annotations, outputs; on under GITHUB_ACTIONS=true), gitlab (a collapsible section; on under GITLAB_CI=true), junit=FILE, json=FILE, or none (also KW_REPORT=none)')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'The kuberc to read preferences (defaults, aliases, credentialPluginPolicy) from, as kubectl does: else $KUBERC, else ~/.kube/kuberc; KUBERC=off or KUBECTL_KUBERC=false reads none')
            [CompletionResult]::new('--all-containers', '--all-containers', [CompletionResultType]::ParameterName, 'Get all containers'' logs in the pod(s)')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Specify if the logs should be streamed')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Specify if the logs should be streamed')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'If true, print the logs for the previous instance of the container in a pod if it exists')
            [CompletionResult]::new('--previous', '--previous', [CompletionResultType]::ParameterName, 'If true, print the logs for the previous instance of the container in a pod if it exists')
            [CompletionResult]::new('--timestamps', '--timestamps', [CompletionResultType]::ParameterName, 'Include timestamps on each line in the log output')
            [CompletionResult]::new('--prefix', '--prefix', [CompletionResultType]::ParameterName, 'Prefix each log line with the log source (pod name and container name)')
            [CompletionResult]::new('--ignore-errors', '--ignore-errors', [CompletionResultType]::ParameterName, 'If watching / following pod logs, allow for any errors that occur to be non-fatal')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig at once (as --context with all their names)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kw;version' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'One of ''yaml'' or ''json'': clientVersion (kw''s) and serverVersion, as kubectl''s')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'One of ''yaml'' or ''json'': clientVersion (kw''s) and serverVersion, as kubectl''s')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace to use (default: the context''s, else `default`); a comma list or globs (`-n web,api`, `-n ''team-*''`) choose several, laid out as with -A')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace to use (default: the context''s, else `default`); a comma list or globs (`-n web,api`, `-n ''team-*''`) choose several, laid out as with -A')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (that file only; otherwise $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use; a comma list or globs (`--context eu,us`, `--context ''prod-*''`) watch several clusters at once, merged into one stream with a CONTEXT column')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the API server (`https://host:port`)')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the API server (`https://host:port`)')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a PEM file of CA certificates to verify the server with')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a PEM client certificate')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to the PEM key of the client certificate')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to verify the server''s certificate against, instead of the host')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate. Insecure: kw warns every time')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'Username to impersonate for the operation (a user or a service account)')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate for the operation; repeat for several groups')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate for the operation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this long (`30s`, `2m`; a bare number is seconds; 0 = never). Also cuts a watch after this long, as in kubectl')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'Write the verdict of a wait (get --until, rollout status, wait) for the CI too, as well as on stderr (repeatable): github (step summary, annotations, outputs; on under GITHUB_ACTIONS=true), gitlab (a collapsible section; on under GITLAB_CI=true), junit=FILE, json=FILE, or none (also KW_REPORT=none)')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'The kuberc to read preferences (defaults, aliases, credentialPluginPolicy) from, as kubectl does: else $KUBERC, else ~/.kube/kuberc; KUBERC=off or KUBECTL_KUBERC=false reads none')
            [CompletionResult]::new('--client', '--client', [CompletionResultType]::ParameterName, 'Print only kw''s version; do not ask the server')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig at once (as --context with all their names)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kw;rollout' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace to use (default: the context''s, else `default`); a comma list or globs (`-n web,api`, `-n ''team-*''`) choose several, laid out as with -A')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace to use (default: the context''s, else `default`); a comma list or globs (`-n web,api`, `-n ''team-*''`) choose several, laid out as with -A')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (that file only; otherwise $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use; a comma list or globs (`--context eu,us`, `--context ''prod-*''`) watch several clusters at once, merged into one stream with a CONTEXT column')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the API server (`https://host:port`)')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the API server (`https://host:port`)')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a PEM file of CA certificates to verify the server with')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a PEM client certificate')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to the PEM key of the client certificate')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to verify the server''s certificate against, instead of the host')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate. Insecure: kw warns every time')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'Username to impersonate for the operation (a user or a service account)')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate for the operation; repeat for several groups')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate for the operation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this long (`30s`, `2m`; a bare number is seconds; 0 = never). Also cuts a watch after this long, as in kubectl')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'Write the verdict of a wait (get --until, rollout status, wait) for the CI too, as well as on stderr (repeatable): github (step summary, annotations, outputs; on under GITHUB_ACTIONS=true), gitlab (a collapsible section; on under GITLAB_CI=true), junit=FILE, json=FILE, or none (also KW_REPORT=none)')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'The kuberc to read preferences (defaults, aliases, credentialPluginPolicy) from, as kubectl does: else $KUBERC, else ~/.kube/kuberc; KUBERC=off or KUBECTL_KUBERC=false reads none')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig at once (as --context with all their names)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show the status of the rollout, as `kubectl rollout status` (its lines on stdout, byte for byte), until it is done')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kw;rollout;status' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The objects a manifest names (YAML or JSON; `-` reads stdin; a directory: its .json, .yaml and .yml files). Repeatable: the files'' objects in the order given')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'The objects a manifest names (YAML or JSON; `-` reads stdin; a directory: its .json, .yaml and .yml files). Repeatable: the files'' objects in the order given')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Selector (label query) to filter on, supports ''='', ''=='', ''!='', ''in'', ''notin'' (e.g. -l key1=value1,key2=value2): the objects of TYPE it matches, one after another')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'Selector (label query) to filter on, supports ''='', ''=='', ''!='', ''in'', ''notin'' (e.g. -l key1=value1,key2=value2): the objects of TYPE it matches, one after another')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Watch the status of the rollout until it''s done (`--watch=false`: print the status once)')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Watch the status of the rollout until it''s done (`--watch=false`: print the status once)')
            [CompletionResult]::new('--revision', '--revision', [CompletionResultType]::ParameterName, 'Pin to a specific revision for showing its status (Deployments). Defaults to 0 (last revision)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'The length of time to wait before ending watch, zero means never (e.g. 1s, 2m, 3h)')
            [CompletionResult]::new('--fail-grace', '--fail-grace', [CompletionResultType]::ParameterName, 'kw: end the rollout, with exit 2, once a Pod of its current revision has stayed stuck this long (CrashLoopBackOff, ImagePullBackOff, unschedulable...); `0` ends it at once. Without it kw waits as kubectl does (the progress deadline, --timeout) and says once when a Pod has been stuck for 30s')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace to use (default: the context''s, else `default`); a comma list or globs (`-n web,api`, `-n ''team-*''`) choose several, laid out as with -A')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace to use (default: the context''s, else `default`); a comma list or globs (`-n web,api`, `-n ''team-*''`) choose several, laid out as with -A')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (that file only; otherwise $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use; a comma list or globs (`--context eu,us`, `--context ''prod-*''`) watch several clusters at once, merged into one stream with a CONTEXT column')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the API server (`https://host:port`)')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the API server (`https://host:port`)')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a PEM file of CA certificates to verify the server with')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a PEM client certificate')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to the PEM key of the client certificate')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to verify the server''s certificate against, instead of the host')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate. Insecure: kw warns every time')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'Username to impersonate for the operation (a user or a service account)')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate for the operation; repeat for several groups')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate for the operation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this long (`30s`, `2m`; a bare number is seconds; 0 = never). Also cuts a watch after this long, as in kubectl')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'Write the verdict of a wait (get --until, rollout status, wait) for the CI too, as well as on stderr (repeatable): github (step summary, annotations, outputs; on under GITHUB_ACTIONS=true), gitlab (a collapsible section; on under GITLAB_CI=true), junit=FILE, json=FILE, or none (also KW_REPORT=none)')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'The kuberc to read preferences (defaults, aliases, credentialPluginPolicy) from, as kubectl does: else $KUBERC, else ~/.kube/kuberc; KUBERC=off or KUBECTL_KUBERC=false reads none')
            [CompletionResult]::new('-R', '-R ', [CompletionResultType]::ParameterName, 'Process the directory used in -f, --filename recursively')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Process the directory used in -f, --filename recursively')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig at once (as --context with all their names)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kw;rollout;help' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show the status of the rollout, as `kubectl rollout status` (its lines on stdout, byte for byte), until it is done')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kw;rollout;help;status' {
            break
        }
        'kw;rollout;help;help' {
            break
        }
        'kw;wait' {
            [CompletionResult]::new('--for', '--for', [CompletionResultType]::ParameterName, 'The condition: create, delete, condition=NAME[=VALUE], jsonpath=''{EXPR}''[=VALUE], or kw''s ready. Repeated, each object meets them all, one after the other (AND, as kubectl 1.35+; create is waited first); for any one of them, kw get --until A --until B')
            [CompletionResult]::new('--fail-on', '--fail-on', [CompletionResultType]::ParameterName, 'kw: fail (exit 2) once an object meets EXPR: failed (it will not get ready without someone acting), delete, condition=NAME[=VALUE], ... Default with --for=ready: failed')
            [CompletionResult]::new('--fail-grace', '--fail-grace', [CompletionResultType]::ParameterName, 'kw: under --fail-on failed, how long a Pod of a workload''s current revision may stay stuck (CrashLoopBackOff, ImagePullBackOff, ...) before it fails the workload. Default 30s')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The objects a manifest names (YAML or JSON; `-` reads stdin; a directory: its .json, .yaml and .yml files). Repeatable: the files'' objects in the order given')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'The objects a manifest names (YAML or JSON; `-` reads stdin; a directory: its .json, .yaml and .yml files). Repeatable: the files'' objects in the order given')
            [CompletionResult]::new('-R', '-R ', [CompletionResultType]::ParameterName, 'Process the directory used in -f, --filename recursively (kubectl''s default for wait: `-R=false` reads only the directory''s own files)')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Process the directory used in -f, --filename recursively (kubectl''s default for wait: `-R=false` reads only the directory''s own files)')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Label selector (`app=web,tier!=db`)')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'Label selector (`app=web,tier!=db`)')
            [CompletionResult]::new('--field-selector', '--field-selector', [CompletionResultType]::ParameterName, 'Field selector (`status.phase=Running`)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'The length of time to wait before giving up (e.g. 30s, 5m). Zero means check once and don''t wait, negative means wait for a week')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Print each object that met the condition as FORMAT: name, json, yaml, jsonpath=TEMPLATE, go-template=TEMPLATE, ... (default: `TYPE/NAME condition met`)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Print each object that met the condition as FORMAT: name, json, yaml, jsonpath=TEMPLATE, go-template=TEMPLATE, ... (default: `TYPE/NAME condition met`)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace to use (default: the context''s, else `default`); a comma list or globs (`-n web,api`, `-n ''team-*''`) choose several, laid out as with -A')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace to use (default: the context''s, else `default`); a comma list or globs (`-n web,api`, `-n ''team-*''`) choose several, laid out as with -A')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (that file only; otherwise $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use; a comma list or globs (`--context eu,us`, `--context ''prod-*''`) watch several clusters at once, merged into one stream with a CONTEXT column')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the API server (`https://host:port`)')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the API server (`https://host:port`)')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a PEM file of CA certificates to verify the server with')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a PEM client certificate')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to the PEM key of the client certificate')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to verify the server''s certificate against, instead of the host')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate. Insecure: kw warns every time')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'Username to impersonate for the operation (a user or a service account)')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate for the operation; repeat for several groups')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate for the operation')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Give up on a request after this long (`30s`, `2m`; a bare number is seconds; 0 = never). Also cuts a watch after this long, as in kubectl')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level for diagnostics on stderr (kubectl''s -v): 4 logs requests, reconnects and re-lists; 6 and up adds response statuses. Tokens are always redacted')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'Write the verdict of a wait (get --until, rollout status, wait) for the CI too, as well as on stderr (repeatable): github (step summary, annotations, outputs; on under GITHUB_ACTIONS=true), gitlab (a collapsible section; on under GITLAB_CI=true), junit=FILE, json=FILE, or none (also KW_REPORT=none)')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'The kuberc to read preferences (defaults, aliases, credentialPluginPolicy) from, as kubectl does: else $KUBERC, else ~/.kube/kuberc; KUBERC=off or KUBECTL_KUBERC=false reads none')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every object of the types given, in the namespace')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'Across all namespaces')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'Across all namespaces')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'kw: say nothing on stderr about why a wait for ready goes on')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'kw: say nothing on stderr about why a wait for ready goes on')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig at once (as --context with all their names)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kw;help' {
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'List resources, and with -w watch them for changes')
            [CompletionResult]::new('demo', 'demo', [CompletionResultType]::ParameterValue, 'Watch the built-in simulated cluster: `kw sim` with churn, and `kw get` against it')
            [CompletionResult]::new('sim', 'sim', [CompletionResultType]::ParameterValue, 'Run the simulated Kubernetes API server (for tests, benchmarks and offline scripts; `kw sim --help` lists its flags)')
            [CompletionResult]::new('completion', 'completion', [CompletionResultType]::ParameterValue, 'Print a shell completion script (bash, zsh, fish, powershell, elvish)')
            [CompletionResult]::new('logs', 'logs', [CompletionResultType]::ParameterValue, 'Print the logs of a Pod''s containers, as `kubectl logs` (its lines on stdout, byte for byte); -f follows them until the containers end')
            [CompletionResult]::new('version', 'version', [CompletionResultType]::ParameterValue, 'Print kw''s version and, when a cluster is reachable, the server''s')
            [CompletionResult]::new('rollout', 'rollout', [CompletionResultType]::ParameterValue, 'Manage the rollout of a resource (kubectl''s `rollout`): `status`; the others go to kubectl')
            [CompletionResult]::new('wait', 'wait', [CompletionResultType]::ParameterValue, 'Wait for a condition on one or many resources, as `kubectl wait` (its lines on stdout, byte for byte)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kw;help;get' {
            break
        }
        'kw;help;demo' {
            break
        }
        'kw;help;sim' {
            break
        }
        'kw;help;completion' {
            break
        }
        'kw;help;logs' {
            break
        }
        'kw;help;version' {
            break
        }
        'kw;help;rollout' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show the status of the rollout, as `kubectl rollout status` (its lines on stdout, byte for byte), until it is done')
            break
        }
        'kw;help;rollout;status' {
            break
        }
        'kw;help;wait' {
            break
        }
        'kw;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
