
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'fbc' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'fbc'
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
        'fbc' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Render catalog and bundle directories and images into a stream of FBC blobs, as `opm render` does')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Validate a catalog directory, as `opm validate` does, reporting every problem')
            [CompletionResult]::new('graph', 'graph', [CompletionResultType]::ParameterValue, 'Draw the upgrade graph of catalog directories or images (mermaid, dot or JSON)')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare catalogs and report what the change does to installations')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve a catalog directory to OLM over gRPC, as `opm serve` does')
            [CompletionResult]::new('build', 'build', [CompletionResultType]::ParameterValue, 'Build a catalog image from a directory, without a container engine')
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Generate various artifacts for file-based catalogs')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Generate an olm.package blob, as `opm init` does')
            [CompletionResult]::new('alpha', 'alpha', [CompletionResultType]::ParameterValue, 'Commands that are not stable yet, among them opm''s alpha commands: upgrade-path, resolve, render-template, list, convert-template, render-graph')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script on stdout')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Write manual pages: fbc.1 and one page per subcommand')
            [CompletionResult]::new('version', 'version', [CompletionResultType]::ParameterValue, 'Print the version and the commit fbc was built from, as `--version` does')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fbc;render' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--migrate-level', '--migrate-level', [CompletionResultType]::ParameterName, 'Name of the last migration to run (default: none)')
            [CompletionResult]::new('--image-ref-template', '--image-ref-template', [CompletionResultType]::ParameterName, 'Image reference of bundles rendered from bundle directories (a Go template)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never')
            [CompletionResult]::new('--migrate', '--migrate', [CompletionResultType]::ParameterName, 'Perform all available schema migrations on the rendered FBC')
            [CompletionResult]::new('--use-http', '--use-http', [CompletionResultType]::ParameterName, 'Pull images over plain HTTP instead of HTTPS (local or test registries)')
            [CompletionResult]::new('--skip-tls-verify', '--skip-tls-verify', [CompletionResultType]::ParameterName, 'Pull images over HTTPS without verifying the registry''s certificate')
            [CompletionResult]::new('--skip-tls', '--skip-tls', [CompletionResultType]::ParameterName, 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)')
            [CompletionResult]::new('--no-cache', '--no-cache', [CompletionResultType]::ParameterName, 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fbc;validate' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format (text goes to stderr, the others to stdout)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format (text goes to stderr, the others to stdout)')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Disable a lint by its rule id (repeatable)')
            [CompletionResult]::new('--with-catalog', '--with-catalog', [CompletionResultType]::ParameterName, 'As --check-dependencies, with this catalog beside it (NAME=DIR|IMAGE, repeatable)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat warnings from lints as errors')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Text output: errors and the verdict only, no warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Text output: errors and the verdict only, no warnings')
            [CompletionResult]::new('--check-dependencies', '--check-dependencies', [CompletionResultType]::ParameterName, 'Check that OLM classic can install every channel head with its dependencies from the catalog alone (lint dependency-unsatisfiable)')
            [CompletionResult]::new('--use-http', '--use-http', [CompletionResultType]::ParameterName, 'Pull images over plain HTTP instead of HTTPS (local or test registries)')
            [CompletionResult]::new('--skip-tls-verify', '--skip-tls-verify', [CompletionResultType]::ParameterName, 'Pull images over HTTPS without verifying the registry''s certificate')
            [CompletionResult]::new('--skip-tls', '--skip-tls', [CompletionResultType]::ParameterName, 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)')
            [CompletionResult]::new('--no-cache', '--no-cache', [CompletionResultType]::ParameterName, 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fbc;graph' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--minimum-edge', '--minimum-edge', [CompletionResultType]::ParameterName, 'Bundle to use as the lower bound of the drawn edges; default is to draw all edges')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Draw only the channels of this package')
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'Draw only the channels of this package')
            [CompletionResult]::new('--package-name', '--package-name', [CompletionResultType]::ParameterName, 'Draw only the channels of this package')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never')
            [CompletionResult]::new('--draw-v0-semantics', '--draw-v0-semantics', [CompletionResultType]::ParameterName, 'Mark what OLM classic skips: in mermaid as opm does, in dot the skipped bundles')
            [CompletionResult]::new('--use-http', '--use-http', [CompletionResultType]::ParameterName, 'Pull images over plain HTTP instead of HTTPS (local or test registries)')
            [CompletionResult]::new('--skip-tls-verify', '--skip-tls-verify', [CompletionResultType]::ParameterName, 'Pull images over HTTPS without verifying the registry''s certificate')
            [CompletionResult]::new('--skip-tls', '--skip-tls', [CompletionResultType]::ParameterName, 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)')
            [CompletionResult]::new('--no-cache', '--no-cache', [CompletionResultType]::ParameterName, 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fbc;diff' {
            [CompletionResult]::new('--base', '--base', [CompletionResultType]::ParameterName, 'Compare each CATALOG directory with the same path at this git revision')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Accept a kind of change: reported, but the check passes (repeatable)')
            [CompletionResult]::new('--semantics', '--semantics', [CompletionResultType]::ParameterName, 'Upgrade rules to check installations under')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never')
            [CompletionResult]::new('--use-http', '--use-http', [CompletionResultType]::ParameterName, 'Pull images over plain HTTP instead of HTTPS (local or test registries)')
            [CompletionResult]::new('--skip-tls-verify', '--skip-tls-verify', [CompletionResultType]::ParameterName, 'Pull images over HTTPS without verifying the registry''s certificate')
            [CompletionResult]::new('--skip-tls', '--skip-tls', [CompletionResultType]::ParameterName, 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)')
            [CompletionResult]::new('--no-cache', '--no-cache', [CompletionResultType]::ParameterName, 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fbc;serve' {
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'Port to listen on, on all interfaces')
            [CompletionResult]::new('--port', '--port', [CompletionResultType]::ParameterName, 'Port to listen on, on all interfaces')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'File that fatal errors are also written to (the container''s termination message)')
            [CompletionResult]::new('--termination-log', '--termination-log', [CompletionResultType]::ParameterName, 'File that fatal errors are also written to (the container''s termination message)')
            [CompletionResult]::new('--cache-dir', '--cache-dir', [CompletionResultType]::ParameterName, 'Directory of fbc''s cache: a digest of the catalog, checked at start-up (see docs/serve.md)')
            [CompletionResult]::new('--cache-enforce-integrity', '--cache-enforce-integrity', [CompletionResultType]::ParameterName, 'Refuse to serve a catalog that changed since the cache was written [default: true with --cache-dir, unless --cache-only]')
            [CompletionResult]::new('--http-port', '--http-port', [CompletionResultType]::ParameterName, 'Also serve OLM v1''s view of the catalog over HTTP on this port, as catalogd does (/catalogs/NAME/api/v1/all and /metas)')
            [CompletionResult]::new('--catalog-name', '--catalog-name', [CompletionResultType]::ParameterName, 'The catalog''s name in the HTTP view''s paths [default: the directory''s name]')
            [CompletionResult]::new('--pprof-addr', '--pprof-addr', [CompletionResultType]::ParameterName, 'Accepted for opm''s command lines; fbc has no Go profiler and opens no pprof endpoint')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never')
            [CompletionResult]::new('--debug', '--debug', [CompletionResultType]::ParameterName, 'Log every request on stderr')
            [CompletionResult]::new('--cache-only', '--cache-only', [CompletionResultType]::ParameterName, 'Check the catalog, write the cache to --cache-dir and exit without serving')
            [CompletionResult]::new('--pprof-capture-profiles', '--pprof-capture-profiles', [CompletionResultType]::ParameterName, 'Accepted for opm''s command lines; ignored (see --pprof-addr)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fbc;build' {
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Push the image to a registry under this reference')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Push the image to a registry under this reference')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the image to oci:PATH[:TAG] (an OCI image layout) or docker-archive:PATH[:NAME] (repeatable)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the image to oci:PATH[:TAG] (an OCI image layout) or docker-archive:PATH[:NAME] (repeatable)')
            [CompletionResult]::new('--base', '--base', [CompletionResultType]::ParameterName, 'Base image (a registry reference, oci:PATH[:TAG] or docker-archive:PATH) [default: fbc''s own, from this binary]')
            [CompletionResult]::new('--label', '--label', [CompletionResultType]::ParameterName, 'Add a label to the image config (KEY=VALUE, repeatable)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never')
            [CompletionResult]::new('--cache', '--cache', [CompletionResultType]::ParameterName, 'Also put fbc''s serve cache in the image (/tmp/cache) and serve with --cache-dir=/tmp/cache; only for a base whose server is fbc')
            [CompletionResult]::new('--print-digest', '--print-digest', [CompletionResultType]::ParameterName, 'Print the image''s digest on stdout (alone, without --tag or --output: nothing is written)')
            [CompletionResult]::new('--use-http', '--use-http', [CompletionResultType]::ParameterName, 'Pull images over plain HTTP instead of HTTPS (local or test registries)')
            [CompletionResult]::new('--skip-tls-verify', '--skip-tls-verify', [CompletionResultType]::ParameterName, 'Pull images over HTTPS without verifying the registry''s certificate')
            [CompletionResult]::new('--skip-tls', '--skip-tls', [CompletionResultType]::ParameterName, 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)')
            [CompletionResult]::new('--no-cache', '--no-cache', [CompletionResultType]::ParameterName, 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fbc;generate' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('dockerfile', 'dockerfile', [CompletionResultType]::ParameterValue, 'Generate a Dockerfile for a file-based catalog, as `opm generate dockerfile` does')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fbc;generate;dockerfile' {
            [CompletionResult]::new('--runtime', '--runtime', [CompletionResultType]::ParameterName, 'What serves the catalog: opm''s `/bin/opm serve`, or `/fbc serve` from fbc''s own image')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Image the catalog runs in, `scratch` for a binary-less image [default: quay.io/operator-framework/opm:latest; fbc:latest with --runtime fbc]')
            [CompletionResult]::new('--base-image', '--base-image', [CompletionResultType]::ParameterName, 'Image the catalog runs in, `scratch` for a binary-less image [default: quay.io/operator-framework/opm:latest; fbc:latest with --runtime fbc]')
            [CompletionResult]::new('--binary-image', '--binary-image', [CompletionResultType]::ParameterName, 'Deprecated spelling of --base-image; also sets the builder image unless --builder-image is given')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Image of the build stage, which runs `serve --cache-only` on the catalog [default: quay.io/operator-framework/opm:latest; fbc:latest with --runtime fbc]')
            [CompletionResult]::new('--builder-image', '--builder-image', [CompletionResultType]::ParameterName, 'Image of the build stage, which runs `serve --cache-only` on the catalog [default: quay.io/operator-framework/opm:latest; fbc:latest with --runtime fbc]')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Extra image labels as key=value, repeated or comma-separated (quote a value holding a comma: ''"key=a,b"'')')
            [CompletionResult]::new('--extra-labels', '--extra-labels', [CompletionResultType]::ParameterName, 'Extra image labels as key=value, repeated or comma-separated (quote a value holding a comma: ''"key=a,b"'')')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Where to write the Dockerfile instead of <DIR>.Dockerfile; `-` prints it on stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Where to write the Dockerfile instead of <DIR>.Dockerfile; `-` prints it on stdout')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fbc;generate;help' {
            [CompletionResult]::new('dockerfile', 'dockerfile', [CompletionResultType]::ParameterValue, 'Generate a Dockerfile for a file-based catalog, as `opm generate dockerfile` does')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fbc;generate;help;dockerfile' {
            break
        }
        'fbc;generate;help;help' {
            break
        }
        'fbc;init' {
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'The channel that subscriptions default to if unspecified')
            [CompletionResult]::new('--default-channel', '--default-channel', [CompletionResultType]::ParameterName, 'The channel that subscriptions default to if unspecified')
            [CompletionResult]::new('-d', '-d', [CompletionResultType]::ParameterName, 'Path to the package''s description file (its content becomes the description, verbatim)')
            [CompletionResult]::new('--description', '--description', [CompletionResultType]::ParameterName, 'Path to the package''s description file (its content becomes the description, verbatim)')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Path to the package''s icon')
            [CompletionResult]::new('--icon', '--icon', [CompletionResultType]::ParameterName, 'Path to the package''s icon')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fbc;alpha' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('render-graph', 'render-graph', [CompletionResultType]::ParameterValue, 'Draw the upgrade graph in mermaid, as `opm alpha render-graph` does')
            [CompletionResult]::new('upgrade-path', 'upgrade-path', [CompletionResultType]::ParameterValue, 'Show the upgrades OLM takes from an installed bundle, and why it stops')
            [CompletionResult]::new('render-template', 'render-template', [CompletionResultType]::ParameterValue, 'Render a catalog template (basic, semver, substitutes), as `opm alpha render-template` does')
            [CompletionResult]::new('convert-template', 'convert-template', [CompletionResultType]::ParameterValue, 'Turn a catalog file into a template, as `opm alpha convert-template` does')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the contents of a catalog, as `opm alpha list` does')
            [CompletionResult]::new('resolve', 'resolve', [CompletionResultType]::ParameterValue, 'Resolve Subscriptions as OLM classic would, offline: what installs, or OLM''s error')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fbc;alpha;render-graph' {
            [CompletionResult]::new('--minimum-edge', '--minimum-edge', [CompletionResultType]::ParameterName, 'The channel edge to be used as the lower bound of the set of edges composing the upgrade graph; default is to include all edges')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'A specific package name to filter output; default is to include all packages in reference')
            [CompletionResult]::new('--package-name', '--package-name', [CompletionResultType]::ParameterName, 'A specific package name to filter output; default is to include all packages in reference')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never')
            [CompletionResult]::new('--draw-v0-semantics', '--draw-v0-semantics', [CompletionResultType]::ParameterName, 'Whether to indicate OLMv0 semantics in the output; default is to simply represent the upgrade graph')
            [CompletionResult]::new('--use-http', '--use-http', [CompletionResultType]::ParameterName, 'Pull images over plain HTTP instead of HTTPS (local or test registries)')
            [CompletionResult]::new('--skip-tls-verify', '--skip-tls-verify', [CompletionResultType]::ParameterName, 'Pull images over HTTPS without verifying the registry''s certificate')
            [CompletionResult]::new('--skip-tls', '--skip-tls', [CompletionResultType]::ParameterName, 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)')
            [CompletionResult]::new('--no-cache', '--no-cache', [CompletionResultType]::ParameterName, 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fbc;alpha;upgrade-path' {
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'Package of the installed bundle')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Installed bundle: a bundle name or a bundle version of the package')
            [CompletionResult]::new('--from-version', '--from-version', [CompletionResultType]::ParameterName, 'Version of an installed bundle that is not in the catalog (`--from` then only names it)')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'Where to go: a bundle name or version of the package; default: as far as upgrades go. OLM v1 then caps versions at the target''s (`version: "<=T"`) and takes the target as soon as it is a successor (a pinned version)')
            [CompletionResult]::new('--channel', '--channel', [CompletionResultType]::ParameterName, 'Channel to follow (repeat for OLM v1); default: classic uses every channel, the default channel first, v1 all channels')
            [CompletionResult]::new('--semantics', '--semantics', [CompletionResultType]::ParameterName, 'Upgrade rules to follow')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never')
            [CompletionResult]::new('--every-bundle', '--every-bundle', [CompletionResultType]::ParameterName, 'Walk from every bundle of every channel (of --package, or of every package) to its head, one report each')
            [CompletionResult]::new('--all-channels', '--all-channels', [CompletionResultType]::ParameterName, 'With --every-bundle: walk from every bundle of the package without a channel (classic: the default channel first; v1: all channels), not channel by channel')
            [CompletionResult]::new('--use-http', '--use-http', [CompletionResultType]::ParameterName, 'Pull images over plain HTTP instead of HTTPS (local or test registries)')
            [CompletionResult]::new('--skip-tls-verify', '--skip-tls-verify', [CompletionResultType]::ParameterName, 'Pull images over HTTPS without verifying the registry''s certificate')
            [CompletionResult]::new('--skip-tls', '--skip-tls', [CompletionResultType]::ParameterName, 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)')
            [CompletionResult]::new('--no-cache', '--no-cache', [CompletionResultType]::ParameterName, 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fbc;alpha;render-template' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--migrate-level', '--migrate-level', [CompletionResultType]::ParameterName, 'Name of the last migration to run on the rendered bundles (default: none)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Bundle images pulled at once')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Bundle images pulled at once')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Compare the rendering with this committed catalog file instead of printing it: exit 1 with a summary and a unified diff when they differ')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Render from the image cache alone; fail naming every image that is not in it')
            [CompletionResult]::new('--use-http', '--use-http', [CompletionResultType]::ParameterName, 'Pull images over plain HTTP instead of HTTPS (local or test registries)')
            [CompletionResult]::new('--skip-tls-verify', '--skip-tls-verify', [CompletionResultType]::ParameterName, 'Pull images over HTTPS without verifying the registry''s certificate')
            [CompletionResult]::new('--skip-tls', '--skip-tls', [CompletionResultType]::ParameterName, 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)')
            [CompletionResult]::new('--no-cache', '--no-cache', [CompletionResultType]::ParameterName, 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fbc;alpha;convert-template' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('basic', 'basic', [CompletionResultType]::ParameterValue, 'Generate a basic template from a catalog file: bundles become image references')
            [CompletionResult]::new('substitutes', 'substitutes', [CompletionResultType]::ParameterValue, 'Generate a substitutes template from a catalog file: every blob, no substitutions yet')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fbc;alpha;convert-template;basic' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fbc;alpha;convert-template;substitutes' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fbc;alpha;convert-template;help' {
            [CompletionResult]::new('basic', 'basic', [CompletionResultType]::ParameterValue, 'Generate a basic template from a catalog file: bundles become image references')
            [CompletionResult]::new('substitutes', 'substitutes', [CompletionResultType]::ParameterValue, 'Generate a substitutes template from a catalog file: every blob, no substitutions yet')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fbc;alpha;convert-template;help;basic' {
            break
        }
        'fbc;alpha;convert-template;help;substitutes' {
            break
        }
        'fbc;alpha;convert-template;help;help' {
            break
        }
        'fbc;alpha;list' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('packages', 'packages', [CompletionResultType]::ParameterValue, 'List packages: name, display name and default channel')
            [CompletionResult]::new('channels', 'channels', [CompletionResultType]::ParameterValue, 'List channels: package, channel and head')
            [CompletionResult]::new('bundles', 'bundles', [CompletionResultType]::ParameterValue, 'List bundles per channel: edges and image')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fbc;alpha;list;packages' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never')
            [CompletionResult]::new('--use-http', '--use-http', [CompletionResultType]::ParameterName, 'Pull images over plain HTTP instead of HTTPS (local or test registries)')
            [CompletionResult]::new('--skip-tls-verify', '--skip-tls-verify', [CompletionResultType]::ParameterName, 'Pull images over HTTPS without verifying the registry''s certificate')
            [CompletionResult]::new('--skip-tls', '--skip-tls', [CompletionResultType]::ParameterName, 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)')
            [CompletionResult]::new('--no-cache', '--no-cache', [CompletionResultType]::ParameterName, 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fbc;alpha;list;channels' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never')
            [CompletionResult]::new('--use-http', '--use-http', [CompletionResultType]::ParameterName, 'Pull images over plain HTTP instead of HTTPS (local or test registries)')
            [CompletionResult]::new('--skip-tls-verify', '--skip-tls-verify', [CompletionResultType]::ParameterName, 'Pull images over HTTPS without verifying the registry''s certificate')
            [CompletionResult]::new('--skip-tls', '--skip-tls', [CompletionResultType]::ParameterName, 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)')
            [CompletionResult]::new('--no-cache', '--no-cache', [CompletionResultType]::ParameterName, 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fbc;alpha;list;bundles' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never')
            [CompletionResult]::new('--use-http', '--use-http', [CompletionResultType]::ParameterName, 'Pull images over plain HTTP instead of HTTPS (local or test registries)')
            [CompletionResult]::new('--skip-tls-verify', '--skip-tls-verify', [CompletionResultType]::ParameterName, 'Pull images over HTTPS without verifying the registry''s certificate')
            [CompletionResult]::new('--skip-tls', '--skip-tls', [CompletionResultType]::ParameterName, 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)')
            [CompletionResult]::new('--no-cache', '--no-cache', [CompletionResultType]::ParameterName, 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fbc;alpha;list;help' {
            [CompletionResult]::new('packages', 'packages', [CompletionResultType]::ParameterValue, 'List packages: name, display name and default channel')
            [CompletionResult]::new('channels', 'channels', [CompletionResultType]::ParameterValue, 'List channels: package, channel and head')
            [CompletionResult]::new('bundles', 'bundles', [CompletionResultType]::ParameterValue, 'List bundles per channel: edges and image')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fbc;alpha;list;help;packages' {
            break
        }
        'fbc;alpha;list;help;channels' {
            break
        }
        'fbc;alpha;list;help;bundles' {
            break
        }
        'fbc;alpha;list;help;help' {
            break
        }
        'fbc;alpha;resolve' {
            [CompletionResult]::new('--catalog', '--catalog', [CompletionResultType]::ParameterName, 'A CatalogSource''s content: NAME=DIR|IMAGE (repeatable)')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Kubernetes manifests: multi-document YAML or JSON (repeatable; `-` reads stdin)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Kubernetes manifests: multi-document YAML or JSON (repeatable; `-` reads stdin)')
            [CompletionResult]::new('--source', '--source', [CompletionResultType]::ParameterName, 'The catalog of the new Subscription; default: the first --catalog')
            [CompletionResult]::new('--channel', '--channel', [CompletionResultType]::ParameterName, 'Channel of the new Subscription; default: none (OLM then tries the default channel first)')
            [CompletionResult]::new('--starting-csv', '--starting-csv', [CompletionResultType]::ParameterName, 'startingCSV of the new Subscription: that bundle only')
            [CompletionResult]::new('--priority', '--priority', [CompletionResultType]::ParameterName, 'A CatalogSource''s spec.priority: NAME=N (repeatable; overrides the manifests)')
            [CompletionResult]::new('--global-namespace', '--global-namespace', [CompletionResultType]::ParameterName, 'The global catalog namespace (OLM''s --namespace; OpenShift: openshift-marketplace)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace of the new Subscription')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never')
            [CompletionResult]::new('--every-package', '--every-package', [CompletionResultType]::ParameterName, 'One new Subscription per package of the source catalog, to its default channel, each resolved alone')
            [CompletionResult]::new('--use-http', '--use-http', [CompletionResultType]::ParameterName, 'Pull images over plain HTTP instead of HTTPS (local or test registries)')
            [CompletionResult]::new('--skip-tls-verify', '--skip-tls-verify', [CompletionResultType]::ParameterName, 'Pull images over HTTPS without verifying the registry''s certificate')
            [CompletionResult]::new('--skip-tls', '--skip-tls', [CompletionResultType]::ParameterName, 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)')
            [CompletionResult]::new('--no-cache', '--no-cache', [CompletionResultType]::ParameterName, 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fbc;alpha;help' {
            [CompletionResult]::new('render-graph', 'render-graph', [CompletionResultType]::ParameterValue, 'Draw the upgrade graph in mermaid, as `opm alpha render-graph` does')
            [CompletionResult]::new('upgrade-path', 'upgrade-path', [CompletionResultType]::ParameterValue, 'Show the upgrades OLM takes from an installed bundle, and why it stops')
            [CompletionResult]::new('render-template', 'render-template', [CompletionResultType]::ParameterValue, 'Render a catalog template (basic, semver, substitutes), as `opm alpha render-template` does')
            [CompletionResult]::new('convert-template', 'convert-template', [CompletionResultType]::ParameterValue, 'Turn a catalog file into a template, as `opm alpha convert-template` does')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the contents of a catalog, as `opm alpha list` does')
            [CompletionResult]::new('resolve', 'resolve', [CompletionResultType]::ParameterValue, 'Resolve Subscriptions as OLM classic would, offline: what installs, or OLM''s error')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fbc;alpha;help;render-graph' {
            break
        }
        'fbc;alpha;help;upgrade-path' {
            break
        }
        'fbc;alpha;help;render-template' {
            break
        }
        'fbc;alpha;help;convert-template' {
            [CompletionResult]::new('basic', 'basic', [CompletionResultType]::ParameterValue, 'Generate a basic template from a catalog file: bundles become image references')
            [CompletionResult]::new('substitutes', 'substitutes', [CompletionResultType]::ParameterValue, 'Generate a substitutes template from a catalog file: every blob, no substitutions yet')
            break
        }
        'fbc;alpha;help;convert-template;basic' {
            break
        }
        'fbc;alpha;help;convert-template;substitutes' {
            break
        }
        'fbc;alpha;help;list' {
            [CompletionResult]::new('packages', 'packages', [CompletionResultType]::ParameterValue, 'List packages: name, display name and default channel')
            [CompletionResult]::new('channels', 'channels', [CompletionResultType]::ParameterValue, 'List channels: package, channel and head')
            [CompletionResult]::new('bundles', 'bundles', [CompletionResultType]::ParameterValue, 'List bundles per channel: edges and image')
            break
        }
        'fbc;alpha;help;list;packages' {
            break
        }
        'fbc;alpha;help;list;channels' {
            break
        }
        'fbc;alpha;help;list;bundles' {
            break
        }
        'fbc;alpha;help;resolve' {
            break
        }
        'fbc;alpha;help;help' {
            break
        }
        'fbc;completions' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fbc;man' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fbc;version' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fbc;help' {
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Render catalog and bundle directories and images into a stream of FBC blobs, as `opm render` does')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Validate a catalog directory, as `opm validate` does, reporting every problem')
            [CompletionResult]::new('graph', 'graph', [CompletionResultType]::ParameterValue, 'Draw the upgrade graph of catalog directories or images (mermaid, dot or JSON)')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare catalogs and report what the change does to installations')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve a catalog directory to OLM over gRPC, as `opm serve` does')
            [CompletionResult]::new('build', 'build', [CompletionResultType]::ParameterValue, 'Build a catalog image from a directory, without a container engine')
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Generate various artifacts for file-based catalogs')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Generate an olm.package blob, as `opm init` does')
            [CompletionResult]::new('alpha', 'alpha', [CompletionResultType]::ParameterValue, 'Commands that are not stable yet, among them opm''s alpha commands: upgrade-path, resolve, render-template, list, convert-template, render-graph')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script on stdout')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Write manual pages: fbc.1 and one page per subcommand')
            [CompletionResult]::new('version', 'version', [CompletionResultType]::ParameterValue, 'Print the version and the commit fbc was built from, as `--version` does')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fbc;help;render' {
            break
        }
        'fbc;help;validate' {
            break
        }
        'fbc;help;graph' {
            break
        }
        'fbc;help;diff' {
            break
        }
        'fbc;help;serve' {
            break
        }
        'fbc;help;build' {
            break
        }
        'fbc;help;generate' {
            [CompletionResult]::new('dockerfile', 'dockerfile', [CompletionResultType]::ParameterValue, 'Generate a Dockerfile for a file-based catalog, as `opm generate dockerfile` does')
            break
        }
        'fbc;help;generate;dockerfile' {
            break
        }
        'fbc;help;init' {
            break
        }
        'fbc;help;alpha' {
            [CompletionResult]::new('render-graph', 'render-graph', [CompletionResultType]::ParameterValue, 'Draw the upgrade graph in mermaid, as `opm alpha render-graph` does')
            [CompletionResult]::new('upgrade-path', 'upgrade-path', [CompletionResultType]::ParameterValue, 'Show the upgrades OLM takes from an installed bundle, and why it stops')
            [CompletionResult]::new('render-template', 'render-template', [CompletionResultType]::ParameterValue, 'Render a catalog template (basic, semver, substitutes), as `opm alpha render-template` does')
            [CompletionResult]::new('convert-template', 'convert-template', [CompletionResultType]::ParameterValue, 'Turn a catalog file into a template, as `opm alpha convert-template` does')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the contents of a catalog, as `opm alpha list` does')
            [CompletionResult]::new('resolve', 'resolve', [CompletionResultType]::ParameterValue, 'Resolve Subscriptions as OLM classic would, offline: what installs, or OLM''s error')
            break
        }
        'fbc;help;alpha;render-graph' {
            break
        }
        'fbc;help;alpha;upgrade-path' {
            break
        }
        'fbc;help;alpha;render-template' {
            break
        }
        'fbc;help;alpha;convert-template' {
            [CompletionResult]::new('basic', 'basic', [CompletionResultType]::ParameterValue, 'Generate a basic template from a catalog file: bundles become image references')
            [CompletionResult]::new('substitutes', 'substitutes', [CompletionResultType]::ParameterValue, 'Generate a substitutes template from a catalog file: every blob, no substitutions yet')
            break
        }
        'fbc;help;alpha;convert-template;basic' {
            break
        }
        'fbc;help;alpha;convert-template;substitutes' {
            break
        }
        'fbc;help;alpha;list' {
            [CompletionResult]::new('packages', 'packages', [CompletionResultType]::ParameterValue, 'List packages: name, display name and default channel')
            [CompletionResult]::new('channels', 'channels', [CompletionResultType]::ParameterValue, 'List channels: package, channel and head')
            [CompletionResult]::new('bundles', 'bundles', [CompletionResultType]::ParameterValue, 'List bundles per channel: edges and image')
            break
        }
        'fbc;help;alpha;list;packages' {
            break
        }
        'fbc;help;alpha;list;channels' {
            break
        }
        'fbc;help;alpha;list;bundles' {
            break
        }
        'fbc;help;alpha;resolve' {
            break
        }
        'fbc;help;completions' {
            break
        }
        'fbc;help;man' {
            break
        }
        'fbc;help;version' {
            break
        }
        'fbc;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
