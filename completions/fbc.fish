# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_fbc_global_optspecs
    string join \n h/help V/version
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

complete -c fbc -n "__fish_fbc_needs_command" -s h -l help -d 'Print help'
complete -c fbc -n "__fish_fbc_needs_command" -s V -l version -d 'Print version'
complete -c fbc -n "__fish_fbc_needs_command" -f -a "render" -d 'Render catalog directories into a stream of FBC blobs, as `opm render` does'
complete -c fbc -n "__fish_fbc_needs_command" -f -a "generate" -d 'Generate various artifacts for file-based catalogs'
complete -c fbc -n "__fish_fbc_needs_command" -f -a "completions" -d 'Print a shell completion script on stdout'
complete -c fbc -n "__fish_fbc_needs_command" -f -a "man" -d 'Write manual pages: fbc.1 and one page per subcommand'
complete -c fbc -n "__fish_fbc_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c fbc -n "__fish_fbc_using_subcommand render" -s o -l output -d 'Output format' -r -f -a "json\t'A stream of pretty-printed JSON objects, as `opm render` prints by default'
yaml\t'YAML documents separated by `---`, as `opm render -o yaml` prints'"
complete -c fbc -n "__fish_fbc_using_subcommand render" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fbc -n "__fish_fbc_using_subcommand generate; and not __fish_seen_subcommand_from dockerfile help" -s h -l help -d 'Print help'
complete -c fbc -n "__fish_fbc_using_subcommand generate; and not __fish_seen_subcommand_from dockerfile help" -f -a "dockerfile" -d 'Generate a Dockerfile for a file-based catalog, as `opm generate dockerfile` does'
complete -c fbc -n "__fish_fbc_using_subcommand generate; and not __fish_seen_subcommand_from dockerfile help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c fbc -n "__fish_fbc_using_subcommand generate; and __fish_seen_subcommand_from dockerfile" -s i -l base-image -d 'Image the catalog runs in, `scratch` for a binary-less image [default: quay.io/operator-framework/opm:latest]' -r
complete -c fbc -n "__fish_fbc_using_subcommand generate; and __fish_seen_subcommand_from dockerfile" -l binary-image -d 'Deprecated spelling of --base-image; also sets the builder image unless --builder-image is given' -r
complete -c fbc -n "__fish_fbc_using_subcommand generate; and __fish_seen_subcommand_from dockerfile" -s b -l builder-image -d 'Image of the build stage, which runs `opm serve --cache-only` on the catalog [default: quay.io/operator-framework/opm:latest]' -r
complete -c fbc -n "__fish_fbc_using_subcommand generate; and __fish_seen_subcommand_from dockerfile" -s l -l extra-labels -d 'Extra image labels as key=value, repeated or comma-separated (quote a value holding a comma: \'"key=a,b"\')' -r
complete -c fbc -n "__fish_fbc_using_subcommand generate; and __fish_seen_subcommand_from dockerfile" -s o -l output -d 'Where to write the Dockerfile instead of <DIR>.Dockerfile; `-` prints it on stdout' -r -F
complete -c fbc -n "__fish_fbc_using_subcommand generate; and __fish_seen_subcommand_from dockerfile" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c fbc -n "__fish_fbc_using_subcommand generate; and __fish_seen_subcommand_from help" -f -a "dockerfile" -d 'Generate a Dockerfile for a file-based catalog, as `opm generate dockerfile` does'
complete -c fbc -n "__fish_fbc_using_subcommand generate; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c fbc -n "__fish_fbc_using_subcommand completions" -s h -l help -d 'Print help'
complete -c fbc -n "__fish_fbc_using_subcommand man" -s h -l help -d 'Print help'
complete -c fbc -n "__fish_fbc_using_subcommand help; and not __fish_seen_subcommand_from render generate completions man help" -f -a "render" -d 'Render catalog directories into a stream of FBC blobs, as `opm render` does'
complete -c fbc -n "__fish_fbc_using_subcommand help; and not __fish_seen_subcommand_from render generate completions man help" -f -a "generate" -d 'Generate various artifacts for file-based catalogs'
complete -c fbc -n "__fish_fbc_using_subcommand help; and not __fish_seen_subcommand_from render generate completions man help" -f -a "completions" -d 'Print a shell completion script on stdout'
complete -c fbc -n "__fish_fbc_using_subcommand help; and not __fish_seen_subcommand_from render generate completions man help" -f -a "man" -d 'Write manual pages: fbc.1 and one page per subcommand'
complete -c fbc -n "__fish_fbc_using_subcommand help; and not __fish_seen_subcommand_from render generate completions man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c fbc -n "__fish_fbc_using_subcommand help; and __fish_seen_subcommand_from generate" -f -a "dockerfile" -d 'Generate a Dockerfile for a file-based catalog, as `opm generate dockerfile` does'
