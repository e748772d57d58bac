# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_fbc_global_optspecs
    string join \n color= h/help V/version
end

function __fish_fbc_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_fbc_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_fbc_using_subcommand
    set -l cmd (__fish_fbc_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c fbc -n "__fish_fbc_needs_command" -l color -d 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c fbc -n "__fish_fbc_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fbc -n "__fish_fbc_needs_command" -s V -l version -d 'Print version'
complete -c fbc -n "__fish_fbc_needs_command" -f -a "render" -d 'Render catalog and bundle directories and images into a stream of FBC blobs, as `opm render` does'
complete -c fbc -n "__fish_fbc_needs_command" -f -a "validate" -d 'Validate a catalog directory, as `opm validate` does, reporting every problem'
complete -c fbc -n "__fish_fbc_needs_command" -f -a "graph" -d 'Draw the upgrade graph of catalog directories or images (mermaid, dot or JSON)'
complete -c fbc -n "__fish_fbc_needs_command" -f -a "diff" -d 'Compare catalogs and report what the change does to installations'
complete -c fbc -n "__fish_fbc_needs_command" -f -a "serve" -d 'Serve a catalog directory to OLM over gRPC, as `opm serve` does'
complete -c fbc -n "__fish_fbc_needs_command" -f -a "build" -d 'Build a catalog image from a directory, without a container engine'
complete -c fbc -n "__fish_fbc_needs_command" -f -a "generate" -d 'Generate various artifacts for file-based catalogs'
complete -c fbc -n "__fish_fbc_needs_command" -f -a "init" -d 'Generate an olm.package blob, as `opm init` does'
complete -c fbc -n "__fish_fbc_needs_command" -f -a "alpha" -d 'Commands that are not stable yet, among them opm\'s alpha commands: upgrade-path, resolve, render-template, list, convert-template, render-graph'
complete -c fbc -n "__fish_fbc_needs_command" -f -a "completions" -d 'Print a shell completion script on stdout'
complete -c fbc -n "__fish_fbc_needs_command" -f -a "man" -d 'Write manual pages: fbc.1 and one page per subcommand'
complete -c fbc -n "__fish_fbc_needs_command" -f -a "version" -d 'Print the version and the commit fbc was built from, as `--version` does'
complete -c fbc -n "__fish_fbc_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c fbc -n "__fish_fbc_using_subcommand render" -s o -l output -d 'Output format' -r -f -a "json\t'A stream of pretty-printed JSON objects, as `opm render` prints by default'
yaml\t'YAML documents separated by `---`, as `opm render -o yaml` prints'"
complete -c fbc -n "__fish_fbc_using_subcommand render" -l migrate-level -d 'Name of the last migration to run (default: none)' -r
complete -c fbc -n "__fish_fbc_using_subcommand render" -l image-ref-template -d 'Image reference of bundles rendered from bundle directories (a Go template)' -r
complete -c fbc -n "__fish_fbc_using_subcommand render" -l color -d 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c fbc -n "__fish_fbc_using_subcommand render" -l migrate -d 'Perform all available schema migrations on the rendered FBC'
complete -c fbc -n "__fish_fbc_using_subcommand render" -l use-http -d 'Pull images over plain HTTP instead of HTTPS (local or test registries)'
complete -c fbc -n "__fish_fbc_using_subcommand render" -l skip-tls-verify -d 'Pull images over HTTPS without verifying the registry\'s certificate'
complete -c fbc -n "__fish_fbc_using_subcommand render" -l skip-tls -d 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)'
complete -c fbc -n "__fish_fbc_using_subcommand render" -l no-cache -d 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)'
complete -c fbc -n "__fish_fbc_using_subcommand render" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fbc -n "__fish_fbc_using_subcommand validate" -s o -l output -d 'Output format (text goes to stderr, the others to stdout)' -r -f -a "text\t'Findings grouped by package on stderr, with source snippets on a terminal'
json\t'opm\'s `{"passed", "error": {"message"}}` object plus every finding'
yaml\t'The same as YAML, in opm\'s shape (keys sorted)'
sarif\t'SARIF 2.1.0, for GitHub code scanning and other SARIF viewers'
github\t'GitHub Actions workflow commands (`::error file=...::...`)'
gitlab\t'GitLab Code Quality JSON, one entry per finding'"
complete -c fbc -n "__fish_fbc_using_subcommand validate" -l allow -d 'Disable a lint by its rule id (repeatable)' -r -f -a "skip-range-extra-head\t''
replaces-unknown-bundle\t''
image-not-pinned\t''
bundle-object-present\t''
schema-property\t''
yaml-implicit-type\t''
empty-catalog\t''
dependency-unsatisfiable\t''
dependency-search-gave-up\t''"
complete -c fbc -n "__fish_fbc_using_subcommand validate" -l with-catalog -d 'As --check-dependencies, with this catalog beside it (NAME=DIR|IMAGE, repeatable)' -r
complete -c fbc -n "__fish_fbc_using_subcommand validate" -l color -d 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c fbc -n "__fish_fbc_using_subcommand validate" -l strict -d 'Treat warnings from lints as errors'
complete -c fbc -n "__fish_fbc_using_subcommand validate" -s q -l quiet -d 'Text output: errors and the verdict only, no warnings'
complete -c fbc -n "__fish_fbc_using_subcommand validate" -l check-dependencies -d 'Check that OLM classic can install every channel head with its dependencies from the catalog alone (lint dependency-unsatisfiable)'
complete -c fbc -n "__fish_fbc_using_subcommand validate" -l use-http -d 'Pull images over plain HTTP instead of HTTPS (local or test registries)'
complete -c fbc -n "__fish_fbc_using_subcommand validate" -l skip-tls-verify -d 'Pull images over HTTPS without verifying the registry\'s certificate'
complete -c fbc -n "__fish_fbc_using_subcommand validate" -l skip-tls -d 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)'
complete -c fbc -n "__fish_fbc_using_subcommand validate" -l no-cache -d 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)'
complete -c fbc -n "__fish_fbc_using_subcommand validate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fbc -n "__fish_fbc_using_subcommand graph" -s o -l output -d 'Output format' -r -f -a "mermaid\t'Mermaid text, byte for byte what `opm alpha render-graph` prints'
dot\t'Graphviz: one cluster per channel, edge kinds styled, deprecated items marked'
json\t'Nodes (bundles) and edges (replaces, skips, skipRange) as one JSON object, for jq'
svg\t'A picture per channel as one SVG file that fbc lays out itself: no JavaScript, no network'"
complete -c fbc -n "__fish_fbc_using_subcommand graph" -l minimum-edge -d 'Bundle to use as the lower bound of the drawn edges; default is to draw all edges' -r
complete -c fbc -n "__fish_fbc_using_subcommand graph" -s p -l package -l package-name -d 'Draw only the channels of this package' -r
complete -c fbc -n "__fish_fbc_using_subcommand graph" -l color -d 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c fbc -n "__fish_fbc_using_subcommand graph" -l draw-v0-semantics -d 'Mark what OLM classic skips: in mermaid as opm does, in dot the skipped bundles'
complete -c fbc -n "__fish_fbc_using_subcommand graph" -l use-http -d 'Pull images over plain HTTP instead of HTTPS (local or test registries)'
complete -c fbc -n "__fish_fbc_using_subcommand graph" -l skip-tls-verify -d 'Pull images over HTTPS without verifying the registry\'s certificate'
complete -c fbc -n "__fish_fbc_using_subcommand graph" -l skip-tls -d 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)'
complete -c fbc -n "__fish_fbc_using_subcommand graph" -l no-cache -d 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)'
complete -c fbc -n "__fish_fbc_using_subcommand graph" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fbc -n "__fish_fbc_using_subcommand diff" -l base -d 'Compare each CATALOG directory with the same path at this git revision' -r
complete -c fbc -n "__fish_fbc_using_subcommand diff" -s o -l output -d 'Output format' -r -f -a "text\t'A readable report'
markdown\t'A pull-request comment: a summary table and a collapsible section per package'
html\t'One self-contained HTML page, each changed channel drawn as SVG'
json\t'One JSON object (schemas/diff.schema.json), for jq and tests'
gitlab\t'GitLab Code Quality JSON, one entry per problem'"
complete -c fbc -n "__fish_fbc_using_subcommand diff" -l allow -d 'Accept a kind of change: reported, but the check passes (repeatable)' -r -f -a "package-removed\t'A package removed while installations run it'
channel-removed\t'A channel removed while installations follow it'
installation-stranded\t'An installed bundle removed from its channel, with no way left to the head'
installation-stuck\t'A bundle still in its channel that no longer reaches the head'
head-moved-back\t'A channel head replaced by a lower version'
head-removed\t'A channel head removed from its channel (a warning)'
bundle-changed\t'A bundle whose image or properties changed under the same name'"
complete -c fbc -n "__fish_fbc_using_subcommand diff" -l semantics -d 'Upgrade rules to check installations under' -r -f -a "classic\t'OLM classic (Subscription): one step at a time along the channel\'s replaces chain'
v1\t'OLM v1 (ClusterExtension): the highest non-deprecated successor'
both\t'Both, and where they differ'"
complete -c fbc -n "__fish_fbc_using_subcommand diff" -l color -d 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c fbc -n "__fish_fbc_using_subcommand diff" -l use-http -d 'Pull images over plain HTTP instead of HTTPS (local or test registries)'
complete -c fbc -n "__fish_fbc_using_subcommand diff" -l skip-tls-verify -d 'Pull images over HTTPS without verifying the registry\'s certificate'
complete -c fbc -n "__fish_fbc_using_subcommand diff" -l skip-tls -d 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)'
complete -c fbc -n "__fish_fbc_using_subcommand diff" -l no-cache -d 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)'
complete -c fbc -n "__fish_fbc_using_subcommand diff" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fbc -n "__fish_fbc_using_subcommand serve" -s p -l port -d 'Port to listen on, on all interfaces' -r
complete -c fbc -n "__fish_fbc_using_subcommand serve" -s t -l termination-log -d 'File that fatal errors are also written to (the container\'s termination message)' -r -F
complete -c fbc -n "__fish_fbc_using_subcommand serve" -l cache-dir -d 'Directory of fbc\'s cache: a digest of the catalog, checked at start-up (see docs/serve.md)' -r -F
complete -c fbc -n "__fish_fbc_using_subcommand serve" -l cache-enforce-integrity -d 'Refuse to serve a catalog that changed since the cache was written [default: true with --cache-dir, unless --cache-only]' -r -f -a "true\t''
false\t''"
complete -c fbc -n "__fish_fbc_using_subcommand serve" -l http-port -d 'Also serve OLM v1\'s view of the catalog over HTTP on this port, as catalogd does (/catalogs/NAME/api/v1/all and /metas)' -r
complete -c fbc -n "__fish_fbc_using_subcommand serve" -l catalog-name -d 'The catalog\'s name in the HTTP view\'s paths [default: the directory\'s name]' -r
complete -c fbc -n "__fish_fbc_using_subcommand serve" -l pprof-addr -d 'Accepted for opm\'s command lines; fbc has no Go profiler and opens no pprof endpoint' -r
complete -c fbc -n "__fish_fbc_using_subcommand serve" -l color -d 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c fbc -n "__fish_fbc_using_subcommand serve" -l debug -d 'Log every request on stderr'
complete -c fbc -n "__fish_fbc_using_subcommand serve" -l cache-only -d 'Check the catalog, write the cache to --cache-dir and exit without serving'
complete -c fbc -n "__fish_fbc_using_subcommand serve" -l pprof-capture-profiles -d 'Accepted for opm\'s command lines; ignored (see --pprof-addr)'
complete -c fbc -n "__fish_fbc_using_subcommand serve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fbc -n "__fish_fbc_using_subcommand build" -s t -l tag -d 'Push the image to a registry under this reference' -r
complete -c fbc -n "__fish_fbc_using_subcommand build" -s o -l output -d 'Write the image to oci:PATH[:TAG] (an OCI image layout) or docker-archive:PATH[:NAME] (repeatable)' -r
complete -c fbc -n "__fish_fbc_using_subcommand build" -l base -d 'Base image (a registry reference, oci:PATH[:TAG] or docker-archive:PATH) [default: fbc\'s own, from this binary]' -r
complete -c fbc -n "__fish_fbc_using_subcommand build" -l label -d 'Add a label to the image config (KEY=VALUE, repeatable)' -r
complete -c fbc -n "__fish_fbc_using_subcommand build" -l color -d 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c fbc -n "__fish_fbc_using_subcommand build" -l cache -d 'Also put fbc\'s serve cache in the image (/tmp/cache) and serve with --cache-dir=/tmp/cache; only for a base whose server is fbc'
complete -c fbc -n "__fish_fbc_using_subcommand build" -l print-digest -d 'Print the image\'s digest on stdout (alone, without --tag or --output: nothing is written)'
complete -c fbc -n "__fish_fbc_using_subcommand build" -l use-http -d 'Pull images over plain HTTP instead of HTTPS (local or test registries)'
complete -c fbc -n "__fish_fbc_using_subcommand build" -l skip-tls-verify -d 'Pull images over HTTPS without verifying the registry\'s certificate'
complete -c fbc -n "__fish_fbc_using_subcommand build" -l skip-tls -d 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)'
complete -c fbc -n "__fish_fbc_using_subcommand build" -l no-cache -d 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)'
complete -c fbc -n "__fish_fbc_using_subcommand build" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fbc -n "__fish_fbc_using_subcommand generate; and not __fish_seen_subcommand_from dockerfile help" -l color -d 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c fbc -n "__fish_fbc_using_subcommand generate; and not __fish_seen_subcommand_from dockerfile help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fbc -n "__fish_fbc_using_subcommand generate; and not __fish_seen_subcommand_from dockerfile help" -f -a "dockerfile" -d 'Generate a Dockerfile for a file-based catalog, as `opm generate dockerfile` does'
complete -c fbc -n "__fish_fbc_using_subcommand generate; and not __fish_seen_subcommand_from dockerfile help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c fbc -n "__fish_fbc_using_subcommand generate; and __fish_seen_subcommand_from dockerfile" -l runtime -d 'What serves the catalog: opm\'s `/bin/opm serve`, or `/fbc serve` from fbc\'s own image' -r -f -a "opm\t'`/bin/opm serve`, opm\'s Dockerfile text exactly'
fbc\t'`/fbc serve`, on the image of fbc\'s Containerfile (no opm in the image)'"
complete -c fbc -n "__fish_fbc_using_subcommand generate; and __fish_seen_subcommand_from dockerfile" -s i -l base-image -d 'Image the catalog runs in, `scratch` for a binary-less image [default: quay.io/operator-framework/opm:latest; fbc:latest with --runtime fbc]' -r
complete -c fbc -n "__fish_fbc_using_subcommand generate; and __fish_seen_subcommand_from dockerfile" -l binary-image -d 'Deprecated spelling of --base-image; also sets the builder image unless --builder-image is given' -r
complete -c fbc -n "__fish_fbc_using_subcommand generate; and __fish_seen_subcommand_from dockerfile" -s b -l builder-image -d 'Image of the build stage, which runs `serve --cache-only` on the catalog [default: quay.io/operator-framework/opm:latest; fbc:latest with --runtime fbc]' -r
complete -c fbc -n "__fish_fbc_using_subcommand generate; and __fish_seen_subcommand_from dockerfile" -s l -l extra-labels -d 'Extra image labels as key=value, repeated or comma-separated (quote a value holding a comma: \'"key=a,b"\')' -r
complete -c fbc -n "__fish_fbc_using_subcommand generate; and __fish_seen_subcommand_from dockerfile" -s o -l output -d 'Where to write the Dockerfile instead of <DIR>.Dockerfile; `-` prints it on stdout' -r -F
complete -c fbc -n "__fish_fbc_using_subcommand generate; and __fish_seen_subcommand_from dockerfile" -l color -d 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c fbc -n "__fish_fbc_using_subcommand generate; and __fish_seen_subcommand_from dockerfile" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fbc -n "__fish_fbc_using_subcommand generate; and __fish_seen_subcommand_from help" -f -a "dockerfile" -d 'Generate a Dockerfile for a file-based catalog, as `opm generate dockerfile` does'
complete -c fbc -n "__fish_fbc_using_subcommand generate; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c fbc -n "__fish_fbc_using_subcommand init" -s c -l default-channel -d 'The channel that subscriptions default to if unspecified' -r
complete -c fbc -n "__fish_fbc_using_subcommand init" -s d -l description -d 'Path to the package\'s description file (its content becomes the description, verbatim)' -r -F
complete -c fbc -n "__fish_fbc_using_subcommand init" -s i -l icon -d 'Path to the package\'s icon' -r -F
complete -c fbc -n "__fish_fbc_using_subcommand init" -s o -l output -d 'Output format' -r -f -a "json\t'JSON, as opm writes it'
yaml\t'YAML, as opm writes it'"
complete -c fbc -n "__fish_fbc_using_subcommand init" -l color -d 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c fbc -n "__fish_fbc_using_subcommand init" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and not __fish_seen_subcommand_from render-graph upgrade-path render-template convert-template list resolve help" -l color -d 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and not __fish_seen_subcommand_from render-graph upgrade-path render-template convert-template list resolve help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and not __fish_seen_subcommand_from render-graph upgrade-path render-template convert-template list resolve help" -f -a "render-graph" -d 'Draw the upgrade graph in mermaid, as `opm alpha render-graph` does'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and not __fish_seen_subcommand_from render-graph upgrade-path render-template convert-template list resolve help" -f -a "upgrade-path" -d 'Show the upgrades OLM takes from an installed bundle, and why it stops'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and not __fish_seen_subcommand_from render-graph upgrade-path render-template convert-template list resolve help" -f -a "render-template" -d 'Render a catalog template (basic, semver, substitutes), as `opm alpha render-template` does'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and not __fish_seen_subcommand_from render-graph upgrade-path render-template convert-template list resolve help" -f -a "convert-template" -d 'Turn a catalog file into a template, as `opm alpha convert-template` does'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and not __fish_seen_subcommand_from render-graph upgrade-path render-template convert-template list resolve help" -f -a "list" -d 'List the contents of a catalog, as `opm alpha list` does'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and not __fish_seen_subcommand_from render-graph upgrade-path render-template convert-template list resolve help" -f -a "resolve" -d 'Resolve Subscriptions as OLM classic would, offline: what installs, or OLM\'s error'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and not __fish_seen_subcommand_from render-graph upgrade-path render-template convert-template list resolve help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from render-graph" -l minimum-edge -d 'The channel edge to be used as the lower bound of the set of edges composing the upgrade graph; default is to include all edges' -r
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from render-graph" -s p -l package-name -d 'A specific package name to filter output; default is to include all packages in reference' -r
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from render-graph" -l color -d 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from render-graph" -l draw-v0-semantics -d 'Whether to indicate OLMv0 semantics in the output; default is to simply represent the upgrade graph'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from render-graph" -l use-http -d 'Pull images over plain HTTP instead of HTTPS (local or test registries)'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from render-graph" -l skip-tls-verify -d 'Pull images over HTTPS without verifying the registry\'s certificate'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from render-graph" -l skip-tls -d 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from render-graph" -l no-cache -d 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from render-graph" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from upgrade-path" -l package -d 'Package of the installed bundle' -r
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from upgrade-path" -l from -d 'Installed bundle: a bundle name or a bundle version of the package' -r
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from upgrade-path" -l from-version -d 'Version of an installed bundle that is not in the catalog (`--from` then only names it)' -r
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from upgrade-path" -l to -d 'Where to go: a bundle name or version of the package; default: as far as upgrades go. OLM v1 then caps versions at the target\'s (`version: "<=T"`) and takes the target as soon as it is a successor (a pinned version)' -r
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from upgrade-path" -l channel -d 'Channel to follow (repeat for OLM v1); default: classic uses every channel, the default channel first, v1 all channels' -r
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from upgrade-path" -l semantics -d 'Upgrade rules to follow' -r -f -a "classic\t'OLM classic (Subscription): one step at a time along the channel\'s replaces chain'
v1\t'OLM v1 (ClusterExtension): the highest non-deprecated successor'
both\t'Both, and where they differ'"
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from upgrade-path" -s o -l output -d 'Output format' -r -f -a "text\t'A readable report'
json\t'One JSON object, for jq'"
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from upgrade-path" -l color -d 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from upgrade-path" -l every-bundle -d 'Walk from every bundle of every channel (of --package, or of every package) to its head, one report each'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from upgrade-path" -l all-channels -d 'With --every-bundle: walk from every bundle of the package without a channel (classic: the default channel first; v1: all channels), not channel by channel'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from upgrade-path" -l use-http -d 'Pull images over plain HTTP instead of HTTPS (local or test registries)'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from upgrade-path" -l skip-tls-verify -d 'Pull images over HTTPS without verifying the registry\'s certificate'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from upgrade-path" -l skip-tls -d 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from upgrade-path" -l no-cache -d 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from upgrade-path" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from render-template" -s o -l output -d 'Output format' -r -f -a "json\t'A stream of pretty-printed JSON objects, as `opm render` prints'
yaml\t'YAML documents separated by `---`'
mermaid\t'The upgrade graph in mermaid, with OLM classic\'s skipped bundles marked'"
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from render-template" -l migrate-level -d 'Name of the last migration to run on the rendered bundles (default: none)' -r
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from render-template" -s j -l jobs -d 'Bundle images pulled at once' -r
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from render-template" -l check -d 'Compare the rendering with this committed catalog file instead of printing it: exit 1 with a summary and a unified diff when they differ' -r -F
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from render-template" -l color -d 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from render-template" -l offline -d 'Render from the image cache alone; fail naming every image that is not in it'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from render-template" -l use-http -d 'Pull images over plain HTTP instead of HTTPS (local or test registries)'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from render-template" -l skip-tls-verify -d 'Pull images over HTTPS without verifying the registry\'s certificate'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from render-template" -l skip-tls -d 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from render-template" -l no-cache -d 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from render-template" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from convert-template" -l color -d 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from convert-template" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from convert-template" -f -a "basic" -d 'Generate a basic template from a catalog file: bundles become image references'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from convert-template" -f -a "substitutes" -d 'Generate a substitutes template from a catalog file: every blob, no substitutions yet'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from convert-template" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from list" -l color -d 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from list" -f -a "packages" -d 'List packages: name, display name and default channel'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from list" -f -a "channels" -d 'List channels: package, channel and head'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from list" -f -a "bundles" -d 'List bundles per channel: edges and image'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from list" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from resolve" -l catalog -d 'A CatalogSource\'s content: NAME=DIR|IMAGE (repeatable)' -r
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from resolve" -s f -l file -d 'Kubernetes manifests: multi-document YAML or JSON (repeatable; `-` reads stdin)' -r -F
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from resolve" -l source -d 'The catalog of the new Subscription; default: the first --catalog' -r
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from resolve" -l channel -d 'Channel of the new Subscription; default: none (OLM then tries the default channel first)' -r
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from resolve" -l starting-csv -d 'startingCSV of the new Subscription: that bundle only' -r
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from resolve" -l priority -d 'A CatalogSource\'s spec.priority: NAME=N (repeatable; overrides the manifests)' -r
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from resolve" -l global-namespace -d 'The global catalog namespace (OLM\'s --namespace; OpenShift: openshift-marketplace)' -r
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from resolve" -l namespace -d 'Namespace of the new Subscription' -r
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from resolve" -s o -l output -d 'Output format' -r -f -a "text\t'The answer, then why each provider was chosen or which constraints clash'
json\t'One JSON object (`schemas/resolve.schema.json`), for jq'"
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from resolve" -l color -d 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from resolve" -l every-package -d 'One new Subscription per package of the source catalog, to its default channel, each resolved alone'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from resolve" -l use-http -d 'Pull images over plain HTTP instead of HTTPS (local or test registries)'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from resolve" -l skip-tls-verify -d 'Pull images over HTTPS without verifying the registry\'s certificate'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from resolve" -l skip-tls -d 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from resolve" -l no-cache -d 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from resolve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from help" -f -a "render-graph" -d 'Draw the upgrade graph in mermaid, as `opm alpha render-graph` does'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from help" -f -a "upgrade-path" -d 'Show the upgrades OLM takes from an installed bundle, and why it stops'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from help" -f -a "render-template" -d 'Render a catalog template (basic, semver, substitutes), as `opm alpha render-template` does'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from help" -f -a "convert-template" -d 'Turn a catalog file into a template, as `opm alpha convert-template` does'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the contents of a catalog, as `opm alpha list` does'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from help" -f -a "resolve" -d 'Resolve Subscriptions as OLM classic would, offline: what installs, or OLM\'s error'
complete -c fbc -n "__fish_fbc_using_subcommand alpha; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c fbc -n "__fish_fbc_using_subcommand completions" -l color -d 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c fbc -n "__fish_fbc_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fbc -n "__fish_fbc_using_subcommand man" -l color -d 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c fbc -n "__fish_fbc_using_subcommand man" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fbc -n "__fish_fbc_using_subcommand version" -l color -d 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c fbc -n "__fish_fbc_using_subcommand version" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fbc -n "__fish_fbc_using_subcommand help; and not __fish_seen_subcommand_from render validate graph diff serve build generate init alpha completions man version help" -f -a "render" -d 'Render catalog and bundle directories and images into a stream of FBC blobs, as `opm render` does'
complete -c fbc -n "__fish_fbc_using_subcommand help; and not __fish_seen_subcommand_from render validate graph diff serve build generate init alpha completions man version help" -f -a "validate" -d 'Validate a catalog directory, as `opm validate` does, reporting every problem'
complete -c fbc -n "__fish_fbc_using_subcommand help; and not __fish_seen_subcommand_from render validate graph diff serve build generate init alpha completions man version help" -f -a "graph" -d 'Draw the upgrade graph of catalog directories or images (mermaid, dot or JSON)'
complete -c fbc -n "__fish_fbc_using_subcommand help; and not __fish_seen_subcommand_from render validate graph diff serve build generate init alpha completions man version help" -f -a "diff" -d 'Compare catalogs and report what the change does to installations'
complete -c fbc -n "__fish_fbc_using_subcommand help; and not __fish_seen_subcommand_from render validate graph diff serve build generate init alpha completions man version help" -f -a "serve" -d 'Serve a catalog directory to OLM over gRPC, as `opm serve` does'
complete -c fbc -n "__fish_fbc_using_subcommand help; and not __fish_seen_subcommand_from render validate graph diff serve build generate init alpha completions man version help" -f -a "build" -d 'Build a catalog image from a directory, without a container engine'
complete -c fbc -n "__fish_fbc_using_subcommand help; and not __fish_seen_subcommand_from render validate graph diff serve build generate init alpha completions man version help" -f -a "generate" -d 'Generate various artifacts for file-based catalogs'
complete -c fbc -n "__fish_fbc_using_subcommand help; and not __fish_seen_subcommand_from render validate graph diff serve build generate init alpha completions man version help" -f -a "init" -d 'Generate an olm.package blob, as `opm init` does'
complete -c fbc -n "__fish_fbc_using_subcommand help; and not __fish_seen_subcommand_from render validate graph diff serve build generate init alpha completions man version help" -f -a "alpha" -d 'Commands that are not stable yet, among them opm\'s alpha commands: upgrade-path, resolve, render-template, list, convert-template, render-graph'
complete -c fbc -n "__fish_fbc_using_subcommand help; and not __fish_seen_subcommand_from render validate graph diff serve build generate init alpha completions man version help" -f -a "completions" -d 'Print a shell completion script on stdout'
complete -c fbc -n "__fish_fbc_using_subcommand help; and not __fish_seen_subcommand_from render validate graph diff serve build generate init alpha completions man version help" -f -a "man" -d 'Write manual pages: fbc.1 and one page per subcommand'
complete -c fbc -n "__fish_fbc_using_subcommand help; and not __fish_seen_subcommand_from render validate graph diff serve build generate init alpha completions man version help" -f -a "version" -d 'Print the version and the commit fbc was built from, as `--version` does'
complete -c fbc -n "__fish_fbc_using_subcommand help; and not __fish_seen_subcommand_from render validate graph diff serve build generate init alpha completions man version help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c fbc -n "__fish_fbc_using_subcommand help; and __fish_seen_subcommand_from generate" -f -a "dockerfile" -d 'Generate a Dockerfile for a file-based catalog, as `opm generate dockerfile` does'
complete -c fbc -n "__fish_fbc_using_subcommand help; and __fish_seen_subcommand_from alpha" -f -a "render-graph" -d 'Draw the upgrade graph in mermaid, as `opm alpha render-graph` does'
complete -c fbc -n "__fish_fbc_using_subcommand help; and __fish_seen_subcommand_from alpha" -f -a "upgrade-path" -d 'Show the upgrades OLM takes from an installed bundle, and why it stops'
complete -c fbc -n "__fish_fbc_using_subcommand help; and __fish_seen_subcommand_from alpha" -f -a "render-template" -d 'Render a catalog template (basic, semver, substitutes), as `opm alpha render-template` does'
complete -c fbc -n "__fish_fbc_using_subcommand help; and __fish_seen_subcommand_from alpha" -f -a "convert-template" -d 'Turn a catalog file into a template, as `opm alpha convert-template` does'
complete -c fbc -n "__fish_fbc_using_subcommand help; and __fish_seen_subcommand_from alpha" -f -a "list" -d 'List the contents of a catalog, as `opm alpha list` does'
complete -c fbc -n "__fish_fbc_using_subcommand help; and __fish_seen_subcommand_from alpha" -f -a "resolve" -d 'Resolve Subscriptions as OLM classic would, offline: what installs, or OLM\'s error'
