
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
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand render 'Render catalog directories into a stream of FBC blobs, as `opm render` does'
            cand generate 'Generate various artifacts for file-based catalogs'
            cand completions 'Print a shell completion script on stdout'
            cand man 'Write manual pages: fbc.1 and one page per subcommand'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fbc;render'= {
            cand -o 'Output format'
            cand --output 'Output format'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'fbc;generate'= {
            cand -h 'Print help'
            cand --help 'Print help'
            cand dockerfile 'Generate a Dockerfile for a file-based catalog, as `opm generate dockerfile` does'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fbc;generate;dockerfile'= {
            cand -i 'Image the catalog runs in, `scratch` for a binary-less image [default: quay.io/operator-framework/opm:latest]'
            cand --base-image 'Image the catalog runs in, `scratch` for a binary-less image [default: quay.io/operator-framework/opm:latest]'
            cand --binary-image 'Deprecated spelling of --base-image; also sets the builder image unless --builder-image is given'
            cand -b 'Image of the build stage, which runs `opm serve --cache-only` on the catalog [default: quay.io/operator-framework/opm:latest]'
            cand --builder-image 'Image of the build stage, which runs `opm serve --cache-only` on the catalog [default: quay.io/operator-framework/opm:latest]'
            cand -l 'Extra image labels as key=value, repeated or comma-separated (quote a value holding a comma: ''"key=a,b"'')'
            cand --extra-labels 'Extra image labels as key=value, repeated or comma-separated (quote a value holding a comma: ''"key=a,b"'')'
            cand -o 'Where to write the Dockerfile instead of <DIR>.Dockerfile; `-` prints it on stdout'
            cand --output 'Where to write the Dockerfile instead of <DIR>.Dockerfile; `-` prints it on stdout'
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
        &'fbc;completions'= {
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'fbc;man'= {
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'fbc;help'= {
            cand render 'Render catalog directories into a stream of FBC blobs, as `opm render` does'
            cand generate 'Generate various artifacts for file-based catalogs'
            cand completions 'Print a shell completion script on stdout'
            cand man 'Write manual pages: fbc.1 and one page per subcommand'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'fbc;help;render'= {
        }
        &'fbc;help;generate'= {
            cand dockerfile 'Generate a Dockerfile for a file-based catalog, as `opm generate dockerfile` does'
        }
        &'fbc;help;generate;dockerfile'= {
        }
        &'fbc;help;completions'= {
        }
        &'fbc;help;man'= {
        }
        &'fbc;help;help'= {
        }
    ]
    $completions[$command]
}
