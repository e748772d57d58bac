
use builtin;
use str;

set edit:completion:arg-completer[fbc] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'fbc'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'fbc'= {
            cand --color 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand render 'Render catalog and bundle directories and images into a stream of FBC blobs, as `opm render` does'
            cand validate 'Validate a catalog directory, as `opm validate` does, reporting every problem'
            cand graph 'Draw the upgrade graph of catalog directories or images (mermaid, dot or JSON)'
            cand diff 'Compare catalogs and report what the change does to installations'
            cand serve 'Serve a catalog directory to OLM over gRPC, as `opm serve` does'
            cand build 'Build a catalog image from a directory, without a container engine'
            cand generate 'Generate various artifacts for file-based catalogs'
            cand init 'Generate an olm.package blob, as `opm init` does'
            cand alpha 'Commands that are not stable yet, among them opm''s alpha commands: upgrade-path, resolve, render-template, list, convert-template, render-graph'
            cand completions 'Print a shell completion script on stdout'
            cand man 'Write manual pages: fbc.1 and one page per subcommand'
            cand version 'Print the version and the commit fbc was built from, as `--version` does'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fbc;render'= {
            cand -o 'Output format'
            cand --output 'Output format'
            cand --migrate-level 'Name of the last migration to run (default: none)'
            cand --image-ref-template 'Image reference of bundles rendered from bundle directories (a Go template)'
            cand --color 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never'
            cand --migrate 'Perform all available schema migrations on the rendered FBC'
            cand --use-http 'Pull images over plain HTTP instead of HTTPS (local or test registries)'
            cand --skip-tls-verify 'Pull images over HTTPS without verifying the registry''s certificate'
            cand --skip-tls 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)'
            cand --no-cache 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fbc;validate'= {
            cand -o 'Output format (text goes to stderr, the others to stdout)'
            cand --output 'Output format (text goes to stderr, the others to stdout)'
            cand --allow 'Disable a lint by its rule id (repeatable)'
            cand --with-catalog 'As --check-dependencies, with this catalog beside it (NAME=DIR|IMAGE, repeatable)'
            cand --color 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never'
            cand --strict 'Treat warnings from lints as errors'
            cand -q 'Text output: errors and the verdict only, no warnings'
            cand --quiet 'Text output: errors and the verdict only, no warnings'
            cand --check-dependencies 'Check that OLM classic can install every channel head with its dependencies from the catalog alone (lint dependency-unsatisfiable)'
            cand --use-http 'Pull images over plain HTTP instead of HTTPS (local or test registries)'
            cand --skip-tls-verify 'Pull images over HTTPS without verifying the registry''s certificate'
            cand --skip-tls 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)'
            cand --no-cache 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fbc;graph'= {
            cand -o 'Output format'
            cand --output 'Output format'
            cand --minimum-edge 'Bundle to use as the lower bound of the drawn edges; default is to draw all edges'
            cand -p 'Draw only the channels of this package'
            cand --package 'Draw only the channels of this package'
            cand --package-name 'Draw only the channels of this package'
            cand --color 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never'
            cand --draw-v0-semantics 'Mark what OLM classic skips: in mermaid as opm does, in dot the skipped bundles'
            cand --use-http 'Pull images over plain HTTP instead of HTTPS (local or test registries)'
            cand --skip-tls-verify 'Pull images over HTTPS without verifying the registry''s certificate'
            cand --skip-tls 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)'
            cand --no-cache 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fbc;diff'= {
            cand --base 'Compare each CATALOG directory with the same path at this git revision'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --allow 'Accept a kind of change: reported, but the check passes (repeatable)'
            cand --semantics 'Upgrade rules to check installations under'
            cand --color 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never'
            cand --use-http 'Pull images over plain HTTP instead of HTTPS (local or test registries)'
            cand --skip-tls-verify 'Pull images over HTTPS without verifying the registry''s certificate'
            cand --skip-tls 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)'
            cand --no-cache 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fbc;serve'= {
            cand -p 'Port to listen on, on all interfaces'
            cand --port 'Port to listen on, on all interfaces'
            cand -t 'File that fatal errors are also written to (the container''s termination message)'
            cand --termination-log 'File that fatal errors are also written to (the container''s termination message)'
            cand --cache-dir 'Directory of fbc''s cache: a digest of the catalog, checked at start-up (see docs/serve.md)'
            cand --cache-enforce-integrity 'Refuse to serve a catalog that changed since the cache was written [default: true with --cache-dir, unless --cache-only]'
            cand --http-port 'Also serve OLM v1''s view of the catalog over HTTP on this port, as catalogd does (/catalogs/NAME/api/v1/all and /metas)'
            cand --catalog-name 'The catalog''s name in the HTTP view''s paths [default: the directory''s name]'
            cand --pprof-addr 'Accepted for opm''s command lines; fbc has no Go profiler and opens no pprof endpoint'
            cand --color 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never'
            cand --debug 'Log every request on stderr'
            cand --cache-only 'Check the catalog, write the cache to --cache-dir and exit without serving'
            cand --pprof-capture-profiles 'Accepted for opm''s command lines; ignored (see --pprof-addr)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fbc;build'= {
            cand -t 'Push the image to a registry under this reference'
            cand --tag 'Push the image to a registry under this reference'
            cand -o 'Write the image to oci:PATH[:TAG] (an OCI image layout) or docker-archive:PATH[:NAME] (repeatable)'
            cand --output 'Write the image to oci:PATH[:TAG] (an OCI image layout) or docker-archive:PATH[:NAME] (repeatable)'
            cand --base 'Base image (a registry reference, oci:PATH[:TAG] or docker-archive:PATH) [default: fbc''s own, from this binary]'
            cand --label 'Add a label to the image config (KEY=VALUE, repeatable)'
            cand --color 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never'
            cand --cache 'Also put fbc''s serve cache in the image (/tmp/cache) and serve with --cache-dir=/tmp/cache; only for a base whose server is fbc'
            cand --print-digest 'Print the image''s digest on stdout (alone, without --tag or --output: nothing is written)'
            cand --use-http 'Pull images over plain HTTP instead of HTTPS (local or test registries)'
            cand --skip-tls-verify 'Pull images over HTTPS without verifying the registry''s certificate'
            cand --skip-tls 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)'
            cand --no-cache 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fbc;generate'= {
            cand --color 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand dockerfile 'Generate a Dockerfile for a file-based catalog, as `opm generate dockerfile` does'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fbc;generate;dockerfile'= {
            cand --runtime 'What serves the catalog: opm''s `/bin/opm serve`, or `/fbc serve` from fbc''s own image'
            cand -i 'Image the catalog runs in, `scratch` for a binary-less image [default: quay.io/operator-framework/opm:latest; fbc:latest with --runtime fbc]'
            cand --base-image 'Image the catalog runs in, `scratch` for a binary-less image [default: quay.io/operator-framework/opm:latest; fbc:latest with --runtime fbc]'
            cand --binary-image 'Deprecated spelling of --base-image; also sets the builder image unless --builder-image is given'
            cand -b 'Image of the build stage, which runs `serve --cache-only` on the catalog [default: quay.io/operator-framework/opm:latest; fbc:latest with --runtime fbc]'
            cand --builder-image 'Image of the build stage, which runs `serve --cache-only` on the catalog [default: quay.io/operator-framework/opm:latest; fbc:latest with --runtime fbc]'
            cand -l 'Extra image labels as key=value, repeated or comma-separated (quote a value holding a comma: ''"key=a,b"'')'
            cand --extra-labels 'Extra image labels as key=value, repeated or comma-separated (quote a value holding a comma: ''"key=a,b"'')'
            cand -o 'Where to write the Dockerfile instead of <DIR>.Dockerfile; `-` prints it on stdout'
            cand --output 'Where to write the Dockerfile instead of <DIR>.Dockerfile; `-` prints it on stdout'
            cand --color 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fbc;generate;help'= {
            cand dockerfile 'Generate a Dockerfile for a file-based catalog, as `opm generate dockerfile` does'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fbc;generate;help;dockerfile'= {
        }
        &'fbc;generate;help;help'= {
        }
        &'fbc;init'= {
            cand -c 'The channel that subscriptions default to if unspecified'
            cand --default-channel 'The channel that subscriptions default to if unspecified'
            cand -d 'Path to the package''s description file (its content becomes the description, verbatim)'
            cand --description 'Path to the package''s description file (its content becomes the description, verbatim)'
            cand -i 'Path to the package''s icon'
            cand --icon 'Path to the package''s icon'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --color 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fbc;alpha'= {
            cand --color 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand render-graph 'Draw the upgrade graph in mermaid, as `opm alpha render-graph` does'
            cand upgrade-path 'Show the upgrades OLM takes from an installed bundle, and why it stops'
            cand render-template 'Render a catalog template (basic, semver, substitutes), as `opm alpha render-template` does'
            cand convert-template 'Turn a catalog file into a template, as `opm alpha convert-template` does'
            cand list 'List the contents of a catalog, as `opm alpha list` does'
            cand resolve 'Resolve Subscriptions as OLM classic would, offline: what installs, or OLM''s error'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fbc;alpha;render-graph'= {
            cand --minimum-edge 'The channel edge to be used as the lower bound of the set of edges composing the upgrade graph; default is to include all edges'
            cand -p 'A specific package name to filter output; default is to include all packages in reference'
            cand --package-name 'A specific package name to filter output; default is to include all packages in reference'
            cand --color 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never'
            cand --draw-v0-semantics 'Whether to indicate OLMv0 semantics in the output; default is to simply represent the upgrade graph'
            cand --use-http 'Pull images over plain HTTP instead of HTTPS (local or test registries)'
            cand --skip-tls-verify 'Pull images over HTTPS without verifying the registry''s certificate'
            cand --skip-tls 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)'
            cand --no-cache 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fbc;alpha;upgrade-path'= {
            cand --package 'Package of the installed bundle'
            cand --from 'Installed bundle: a bundle name or a bundle version of the package'
            cand --from-version 'Version of an installed bundle that is not in the catalog (`--from` then only names it)'
            cand --to 'Where to go: a bundle name or version of the package; default: as far as upgrades go. OLM v1 then caps versions at the target''s (`version: "<=T"`) and takes the target as soon as it is a successor (a pinned version)'
            cand --channel 'Channel to follow (repeat for OLM v1); default: classic uses every channel, the default channel first, v1 all channels'
            cand --semantics 'Upgrade rules to follow'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --color 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never'
            cand --every-bundle 'Walk from every bundle of every channel (of --package, or of every package) to its head, one report each'
            cand --all-channels 'With --every-bundle: walk from every bundle of the package without a channel (classic: the default channel first; v1: all channels), not channel by channel'
            cand --use-http 'Pull images over plain HTTP instead of HTTPS (local or test registries)'
            cand --skip-tls-verify 'Pull images over HTTPS without verifying the registry''s certificate'
            cand --skip-tls 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)'
            cand --no-cache 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fbc;alpha;render-template'= {
            cand -o 'Output format'
            cand --output 'Output format'
            cand --migrate-level 'Name of the last migration to run on the rendered bundles (default: none)'
            cand -j 'Bundle images pulled at once'
            cand --jobs 'Bundle images pulled at once'
            cand --check 'Compare the rendering with this committed catalog file instead of printing it: exit 1 with a summary and a unified diff when they differ'
            cand --color 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never'
            cand --offline 'Render from the image cache alone; fail naming every image that is not in it'
            cand --use-http 'Pull images over plain HTTP instead of HTTPS (local or test registries)'
            cand --skip-tls-verify 'Pull images over HTTPS without verifying the registry''s certificate'
            cand --skip-tls 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)'
            cand --no-cache 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fbc;alpha;convert-template'= {
            cand --color 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand basic 'Generate a basic template from a catalog file: bundles become image references'
            cand substitutes 'Generate a substitutes template from a catalog file: every blob, no substitutions yet'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fbc;alpha;convert-template;basic'= {
            cand -o 'Output format'
            cand --output 'Output format'
            cand --color 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fbc;alpha;convert-template;substitutes'= {
            cand -o 'Output format'
            cand --output 'Output format'
            cand --color 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fbc;alpha;convert-template;help'= {
            cand basic 'Generate a basic template from a catalog file: bundles become image references'
            cand substitutes 'Generate a substitutes template from a catalog file: every blob, no substitutions yet'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fbc;alpha;convert-template;help;basic'= {
        }
        &'fbc;alpha;convert-template;help;substitutes'= {
        }
        &'fbc;alpha;convert-template;help;help'= {
        }
        &'fbc;alpha;list'= {
            cand --color 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand packages 'List packages: name, display name and default channel'
            cand channels 'List channels: package, channel and head'
            cand bundles 'List bundles per channel: edges and image'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fbc;alpha;list;packages'= {
            cand --color 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never'
            cand --use-http 'Pull images over plain HTTP instead of HTTPS (local or test registries)'
            cand --skip-tls-verify 'Pull images over HTTPS without verifying the registry''s certificate'
            cand --skip-tls 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)'
            cand --no-cache 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fbc;alpha;list;channels'= {
            cand --color 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never'
            cand --use-http 'Pull images over plain HTTP instead of HTTPS (local or test registries)'
            cand --skip-tls-verify 'Pull images over HTTPS without verifying the registry''s certificate'
            cand --skip-tls 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)'
            cand --no-cache 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fbc;alpha;list;bundles'= {
            cand --color 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never'
            cand --use-http 'Pull images over plain HTTP instead of HTTPS (local or test registries)'
            cand --skip-tls-verify 'Pull images over HTTPS without verifying the registry''s certificate'
            cand --skip-tls 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)'
            cand --no-cache 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fbc;alpha;list;help'= {
            cand packages 'List packages: name, display name and default channel'
            cand channels 'List channels: package, channel and head'
            cand bundles 'List bundles per channel: edges and image'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fbc;alpha;list;help;packages'= {
        }
        &'fbc;alpha;list;help;channels'= {
        }
        &'fbc;alpha;list;help;bundles'= {
        }
        &'fbc;alpha;list;help;help'= {
        }
        &'fbc;alpha;resolve'= {
            cand --catalog 'A CatalogSource''s content: NAME=DIR|IMAGE (repeatable)'
            cand -f 'Kubernetes manifests: multi-document YAML or JSON (repeatable; `-` reads stdin)'
            cand --file 'Kubernetes manifests: multi-document YAML or JSON (repeatable; `-` reads stdin)'
            cand --source 'The catalog of the new Subscription; default: the first --catalog'
            cand --channel 'Channel of the new Subscription; default: none (OLM then tries the default channel first)'
            cand --starting-csv 'startingCSV of the new Subscription: that bundle only'
            cand --priority 'A CatalogSource''s spec.priority: NAME=N (repeatable; overrides the manifests)'
            cand --global-namespace 'The global catalog namespace (OLM''s --namespace; OpenShift: openshift-marketplace)'
            cand --namespace 'Namespace of the new Subscription'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --color 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never'
            cand --every-package 'One new Subscription per package of the source catalog, to its default channel, each resolved alone'
            cand --use-http 'Pull images over plain HTTP instead of HTTPS (local or test registries)'
            cand --skip-tls-verify 'Pull images over HTTPS without verifying the registry''s certificate'
            cand --skip-tls 'Deprecated: use --use-http and --skip-tls-verify instead (same as --use-http)'
            cand --no-cache 'Download image blobs again instead of using the cache (`$XDG_CACHE_HOME/fbc`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fbc;alpha;help'= {
            cand render-graph 'Draw the upgrade graph in mermaid, as `opm alpha render-graph` does'
            cand upgrade-path 'Show the upgrades OLM takes from an installed bundle, and why it stops'
            cand render-template 'Render a catalog template (basic, semver, substitutes), as `opm alpha render-template` does'
            cand convert-template 'Turn a catalog file into a template, as `opm alpha convert-template` does'
            cand list 'List the contents of a catalog, as `opm alpha list` does'
            cand resolve 'Resolve Subscriptions as OLM classic would, offline: what installs, or OLM''s error'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fbc;alpha;help;render-graph'= {
        }
        &'fbc;alpha;help;upgrade-path'= {
        }
        &'fbc;alpha;help;render-template'= {
        }
        &'fbc;alpha;help;convert-template'= {
            cand basic 'Generate a basic template from a catalog file: bundles become image references'
            cand substitutes 'Generate a substitutes template from a catalog file: every blob, no substitutions yet'
        }
        &'fbc;alpha;help;convert-template;basic'= {
        }
        &'fbc;alpha;help;convert-template;substitutes'= {
        }
        &'fbc;alpha;help;list'= {
            cand packages 'List packages: name, display name and default channel'
            cand channels 'List channels: package, channel and head'
            cand bundles 'List bundles per channel: edges and image'
        }
        &'fbc;alpha;help;list;packages'= {
        }
        &'fbc;alpha;help;list;channels'= {
        }
        &'fbc;alpha;help;list;bundles'= {
        }
        &'fbc;alpha;help;resolve'= {
        }
        &'fbc;alpha;help;help'= {
        }
        &'fbc;completions'= {
            cand --color 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fbc;man'= {
            cand --color 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fbc;version'= {
            cand --color 'When to colour stderr and show source snippets: auto (on a terminal, unless NO_COLOR is set, CLICOLOR=0 or TERM=dumb; CLICOLOR_FORCE=1 forces it), always, never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fbc;help'= {
            cand render 'Render catalog and bundle directories and images into a stream of FBC blobs, as `opm render` does'
            cand validate 'Validate a catalog directory, as `opm validate` does, reporting every problem'
            cand graph 'Draw the upgrade graph of catalog directories or images (mermaid, dot or JSON)'
            cand diff 'Compare catalogs and report what the change does to installations'
            cand serve 'Serve a catalog directory to OLM over gRPC, as `opm serve` does'
            cand build 'Build a catalog image from a directory, without a container engine'
            cand generate 'Generate various artifacts for file-based catalogs'
            cand init 'Generate an olm.package blob, as `opm init` does'
            cand alpha 'Commands that are not stable yet, among them opm''s alpha commands: upgrade-path, resolve, render-template, list, convert-template, render-graph'
            cand completions 'Print a shell completion script on stdout'
            cand man 'Write manual pages: fbc.1 and one page per subcommand'
            cand version 'Print the version and the commit fbc was built from, as `--version` does'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fbc;help;render'= {
        }
        &'fbc;help;validate'= {
        }
        &'fbc;help;graph'= {
        }
        &'fbc;help;diff'= {
        }
        &'fbc;help;serve'= {
        }
        &'fbc;help;build'= {
        }
        &'fbc;help;generate'= {
            cand dockerfile 'Generate a Dockerfile for a file-based catalog, as `opm generate dockerfile` does'
        }
        &'fbc;help;generate;dockerfile'= {
        }
        &'fbc;help;init'= {
        }
        &'fbc;help;alpha'= {
            cand render-graph 'Draw the upgrade graph in mermaid, as `opm alpha render-graph` does'
            cand upgrade-path 'Show the upgrades OLM takes from an installed bundle, and why it stops'
            cand render-template 'Render a catalog template (basic, semver, substitutes), as `opm alpha render-template` does'
            cand convert-template 'Turn a catalog file into a template, as `opm alpha convert-template` does'
            cand list 'List the contents of a catalog, as `opm alpha list` does'
            cand resolve 'Resolve Subscriptions as OLM classic would, offline: what installs, or OLM''s error'
        }
        &'fbc;help;alpha;render-graph'= {
        }
        &'fbc;help;alpha;upgrade-path'= {
        }
        &'fbc;help;alpha;render-template'= {
        }
        &'fbc;help;alpha;convert-template'= {
            cand basic 'Generate a basic template from a catalog file: bundles become image references'
            cand substitutes 'Generate a substitutes template from a catalog file: every blob, no substitutions yet'
        }
        &'fbc;help;alpha;convert-template;basic'= {
        }
        &'fbc;help;alpha;convert-template;substitutes'= {
        }
        &'fbc;help;alpha;list'= {
            cand packages 'List packages: name, display name and default channel'
            cand channels 'List channels: package, channel and head'
            cand bundles 'List bundles per channel: edges and image'
        }
        &'fbc;help;alpha;list;packages'= {
        }
        &'fbc;help;alpha;list;channels'= {
        }
        &'fbc;help;alpha;list;bundles'= {
        }
        &'fbc;help;alpha;resolve'= {
        }
        &'fbc;help;completions'= {
        }
        &'fbc;help;man'= {
        }
        &'fbc;help;version'= {
        }
        &'fbc;help;help'= {
        }
    ]
    $completions[$command]
}
