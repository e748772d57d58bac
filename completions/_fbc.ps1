
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
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Render catalog directories into a stream of FBC blobs, as `opm render` does')
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Generate various artifacts for file-based catalogs')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script on stdout')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Write manual pages: fbc.1 and one page per subcommand')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fbc;render' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'fbc;generate' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('dockerfile', 'dockerfile', [CompletionResultType]::ParameterValue, 'Generate a Dockerfile for a file-based catalog, as `opm generate dockerfile` does')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fbc;generate;dockerfile' {
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Image the catalog runs in, `scratch` for a binary-less image [default: quay.io/operator-framework/opm:latest]')
            [CompletionResult]::new('--base-image', '--base-image', [CompletionResultType]::ParameterName, 'Image the catalog runs in, `scratch` for a binary-less image [default: quay.io/operator-framework/opm:latest]')
            [CompletionResult]::new('--binary-image', '--binary-image', [CompletionResultType]::ParameterName, 'Deprecated spelling of --base-image; also sets the builder image unless --builder-image is given')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Image of the build stage, which runs `opm serve --cache-only` on the catalog [default: quay.io/operator-framework/opm:latest]')
            [CompletionResult]::new('--builder-image', '--builder-image', [CompletionResultType]::ParameterName, 'Image of the build stage, which runs `opm serve --cache-only` on the catalog [default: quay.io/operator-framework/opm:latest]')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Extra image labels as key=value, repeated or comma-separated (quote a value holding a comma: ''"key=a,b"'')')
            [CompletionResult]::new('--extra-labels', '--extra-labels', [CompletionResultType]::ParameterName, 'Extra image labels as key=value, repeated or comma-separated (quote a value holding a comma: ''"key=a,b"'')')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Where to write the Dockerfile instead of <DIR>.Dockerfile; `-` prints it on stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Where to write the Dockerfile instead of <DIR>.Dockerfile; `-` prints it on stdout')
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
        'fbc;completions' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'fbc;man' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'fbc;help' {
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Render catalog directories into a stream of FBC blobs, as `opm render` does')
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Generate various artifacts for file-based catalogs')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script on stdout')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Write manual pages: fbc.1 and one page per subcommand')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'fbc;help;render' {
            break
        }
        'fbc;help;generate' {
            [CompletionResult]::new('dockerfile', 'dockerfile', [CompletionResultType]::ParameterValue, 'Generate a Dockerfile for a file-based catalog, as `opm generate dockerfile` does')
            break
        }
        'fbc;help;generate;dockerfile' {
            break
        }
        'fbc;help;completions' {
            break
        }
        'fbc;help;man' {
            break
        }
        'fbc;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
