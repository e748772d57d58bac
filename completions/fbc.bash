_fbc() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="fbc"
                ;;
            fbc,alpha)
                cmd="fbc__subcmd__alpha"
                ;;
            fbc,build)
                cmd="fbc__subcmd__build"
                ;;
            fbc,completions)
                cmd="fbc__subcmd__completions"
                ;;
            fbc,diff)
                cmd="fbc__subcmd__diff"
                ;;
            fbc,generate)
                cmd="fbc__subcmd__generate"
                ;;
            fbc,graph)
                cmd="fbc__subcmd__graph"
                ;;
            fbc,help)
                cmd="fbc__subcmd__help"
                ;;
            fbc,init)
                cmd="fbc__subcmd__init"
                ;;
            fbc,man)
                cmd="fbc__subcmd__man"
                ;;
            fbc,render)
                cmd="fbc__subcmd__render"
                ;;
            fbc,serve)
                cmd="fbc__subcmd__serve"
                ;;
            fbc,validate)
                cmd="fbc__subcmd__validate"
                ;;
            fbc,version)
                cmd="fbc__subcmd__version"
                ;;
            fbc__subcmd__alpha,convert-template)
                cmd="fbc__subcmd__alpha__subcmd__convert__subcmd__template"
                ;;
            fbc__subcmd__alpha,help)
                cmd="fbc__subcmd__alpha__subcmd__help"
                ;;
            fbc__subcmd__alpha,list)
                cmd="fbc__subcmd__alpha__subcmd__list"
                ;;
            fbc__subcmd__alpha,render-graph)
                cmd="fbc__subcmd__alpha__subcmd__render__subcmd__graph"
                ;;
            fbc__subcmd__alpha,render-template)
                cmd="fbc__subcmd__alpha__subcmd__render__subcmd__template"
                ;;
            fbc__subcmd__alpha,resolve)
                cmd="fbc__subcmd__alpha__subcmd__resolve"
                ;;
            fbc__subcmd__alpha,upgrade-path)
                cmd="fbc__subcmd__alpha__subcmd__upgrade__subcmd__path"
                ;;
            fbc__subcmd__alpha__subcmd__convert__subcmd__template,basic)
                cmd="fbc__subcmd__alpha__subcmd__convert__subcmd__template__subcmd__basic"
                ;;
            fbc__subcmd__alpha__subcmd__convert__subcmd__template,help)
                cmd="fbc__subcmd__alpha__subcmd__convert__subcmd__template__subcmd__help"
                ;;
            fbc__subcmd__alpha__subcmd__convert__subcmd__template,substitutes)
                cmd="fbc__subcmd__alpha__subcmd__convert__subcmd__template__subcmd__substitutes"
                ;;
            fbc__subcmd__alpha__subcmd__convert__subcmd__template__subcmd__help,basic)
                cmd="fbc__subcmd__alpha__subcmd__convert__subcmd__template__subcmd__help__subcmd__basic"
                ;;
            fbc__subcmd__alpha__subcmd__convert__subcmd__template__subcmd__help,help)
                cmd="fbc__subcmd__alpha__subcmd__convert__subcmd__template__subcmd__help__subcmd__help"
                ;;
            fbc__subcmd__alpha__subcmd__convert__subcmd__template__subcmd__help,substitutes)
                cmd="fbc__subcmd__alpha__subcmd__convert__subcmd__template__subcmd__help__subcmd__substitutes"
                ;;
            fbc__subcmd__alpha__subcmd__help,convert-template)
                cmd="fbc__subcmd__alpha__subcmd__help__subcmd__convert__subcmd__template"
                ;;
            fbc__subcmd__alpha__subcmd__help,help)
                cmd="fbc__subcmd__alpha__subcmd__help__subcmd__help"
                ;;
            fbc__subcmd__alpha__subcmd__help,list)
                cmd="fbc__subcmd__alpha__subcmd__help__subcmd__list"
                ;;
            fbc__subcmd__alpha__subcmd__help,render-graph)
                cmd="fbc__subcmd__alpha__subcmd__help__subcmd__render__subcmd__graph"
                ;;
            fbc__subcmd__alpha__subcmd__help,render-template)
                cmd="fbc__subcmd__alpha__subcmd__help__subcmd__render__subcmd__template"
                ;;
            fbc__subcmd__alpha__subcmd__help,resolve)
                cmd="fbc__subcmd__alpha__subcmd__help__subcmd__resolve"
                ;;
            fbc__subcmd__alpha__subcmd__help,upgrade-path)
                cmd="fbc__subcmd__alpha__subcmd__help__subcmd__upgrade__subcmd__path"
                ;;
            fbc__subcmd__alpha__subcmd__help__subcmd__convert__subcmd__template,basic)
                cmd="fbc__subcmd__alpha__subcmd__help__subcmd__convert__subcmd__template__subcmd__basic"
                ;;
            fbc__subcmd__alpha__subcmd__help__subcmd__convert__subcmd__template,substitutes)
                cmd="fbc__subcmd__alpha__subcmd__help__subcmd__convert__subcmd__template__subcmd__substitutes"
                ;;
            fbc__subcmd__alpha__subcmd__help__subcmd__list,bundles)
                cmd="fbc__subcmd__alpha__subcmd__help__subcmd__list__subcmd__bundles"
                ;;
            fbc__subcmd__alpha__subcmd__help__subcmd__list,channels)
                cmd="fbc__subcmd__alpha__subcmd__help__subcmd__list__subcmd__channels"
                ;;
            fbc__subcmd__alpha__subcmd__help__subcmd__list,packages)
                cmd="fbc__subcmd__alpha__subcmd__help__subcmd__list__subcmd__packages"
                ;;
            fbc__subcmd__alpha__subcmd__list,bundles)
                cmd="fbc__subcmd__alpha__subcmd__list__subcmd__bundles"
                ;;
            fbc__subcmd__alpha__subcmd__list,channels)
                cmd="fbc__subcmd__alpha__subcmd__list__subcmd__channels"
                ;;
            fbc__subcmd__alpha__subcmd__list,help)
                cmd="fbc__subcmd__alpha__subcmd__list__subcmd__help"
                ;;
            fbc__subcmd__alpha__subcmd__list,packages)
                cmd="fbc__subcmd__alpha__subcmd__list__subcmd__packages"
                ;;
            fbc__subcmd__alpha__subcmd__list__subcmd__help,bundles)
                cmd="fbc__subcmd__alpha__subcmd__list__subcmd__help__subcmd__bundles"
                ;;
            fbc__subcmd__alpha__subcmd__list__subcmd__help,channels)
                cmd="fbc__subcmd__alpha__subcmd__list__subcmd__help__subcmd__channels"
                ;;
            fbc__subcmd__alpha__subcmd__list__subcmd__help,help)
                cmd="fbc__subcmd__alpha__subcmd__list__subcmd__help__subcmd__help"
                ;;
            fbc__subcmd__alpha__subcmd__list__subcmd__help,packages)
                cmd="fbc__subcmd__alpha__subcmd__list__subcmd__help__subcmd__packages"
                ;;
            fbc__subcmd__generate,dockerfile)
                cmd="fbc__subcmd__generate__subcmd__dockerfile"
                ;;
            fbc__subcmd__generate,help)
                cmd="fbc__subcmd__generate__subcmd__help"
                ;;
            fbc__subcmd__generate__subcmd__help,dockerfile)
                cmd="fbc__subcmd__generate__subcmd__help__subcmd__dockerfile"
                ;;
            fbc__subcmd__generate__subcmd__help,help)
                cmd="fbc__subcmd__generate__subcmd__help__subcmd__help"
                ;;
            fbc__subcmd__help,alpha)
                cmd="fbc__subcmd__help__subcmd__alpha"
                ;;
            fbc__subcmd__help,build)
                cmd="fbc__subcmd__help__subcmd__build"
                ;;
            fbc__subcmd__help,completions)
                cmd="fbc__subcmd__help__subcmd__completions"
                ;;
            fbc__subcmd__help,diff)
                cmd="fbc__subcmd__help__subcmd__diff"
                ;;
            fbc__subcmd__help,generate)
                cmd="fbc__subcmd__help__subcmd__generate"
                ;;
            fbc__subcmd__help,graph)
                cmd="fbc__subcmd__help__subcmd__graph"
                ;;
            fbc__subcmd__help,help)
                cmd="fbc__subcmd__help__subcmd__help"
                ;;
            fbc__subcmd__help,init)
                cmd="fbc__subcmd__help__subcmd__init"
                ;;
            fbc__subcmd__help,man)
                cmd="fbc__subcmd__help__subcmd__man"
                ;;
            fbc__subcmd__help,render)
                cmd="fbc__subcmd__help__subcmd__render"
                ;;
            fbc__subcmd__help,serve)
                cmd="fbc__subcmd__help__subcmd__serve"
                ;;
            fbc__subcmd__help,validate)
                cmd="fbc__subcmd__help__subcmd__validate"
                ;;
            fbc__subcmd__help,version)
                cmd="fbc__subcmd__help__subcmd__version"
                ;;
            fbc__subcmd__help__subcmd__alpha,convert-template)
                cmd="fbc__subcmd__help__subcmd__alpha__subcmd__convert__subcmd__template"
                ;;
            fbc__subcmd__help__subcmd__alpha,list)
                cmd="fbc__subcmd__help__subcmd__alpha__subcmd__list"
                ;;
            fbc__subcmd__help__subcmd__alpha,render-graph)
                cmd="fbc__subcmd__help__subcmd__alpha__subcmd__render__subcmd__graph"
                ;;
            fbc__subcmd__help__subcmd__alpha,render-template)
                cmd="fbc__subcmd__help__subcmd__alpha__subcmd__render__subcmd__template"
                ;;
            fbc__subcmd__help__subcmd__alpha,resolve)
                cmd="fbc__subcmd__help__subcmd__alpha__subcmd__resolve"
                ;;
            fbc__subcmd__help__subcmd__alpha,upgrade-path)
                cmd="fbc__subcmd__help__subcmd__alpha__subcmd__upgrade__subcmd__path"
                ;;
            fbc__subcmd__help__subcmd__alpha__subcmd__convert__subcmd__template,basic)
                cmd="fbc__subcmd__help__subcmd__alpha__subcmd__convert__subcmd__template__subcmd__basic"
                ;;
            fbc__subcmd__help__subcmd__alpha__subcmd__convert__subcmd__template,substitutes)
                cmd="fbc__subcmd__help__subcmd__alpha__subcmd__convert__subcmd__template__subcmd__substitutes"
                ;;
            fbc__subcmd__help__subcmd__alpha__subcmd__list,bundles)
                cmd="fbc__subcmd__help__subcmd__alpha__subcmd__list__subcmd__bundles"
                ;;
            fbc__subcmd__help__subcmd__alpha__subcmd__list,channels)
                cmd="fbc__subcmd__help__subcmd__alpha__subcmd__list__subcmd__channels"
                ;;
            fbc__subcmd__help__subcmd__alpha__subcmd__list,packages)
                cmd="fbc__subcmd__help__subcmd__alpha__subcmd__list__subcmd__packages"
                ;;
            fbc__subcmd__help__subcmd__generate,dockerfile)
                cmd="fbc__subcmd__help__subcmd__generate__subcmd__dockerfile"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        fbc)
            opts="-h -V --color --help --version render validate graph diff serve build generate init alpha completions man version help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha)
            opts="-h --color --help render-graph upgrade-path render-template convert-template list resolve help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__convert__subcmd__template)
            opts="-h --color --help basic substitutes help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__convert__subcmd__template__subcmd__basic)
            opts="-o -h --output --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --output)
                    COMPREPLY=($(compgen -W "json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "json yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__convert__subcmd__template__subcmd__help)
            opts="basic substitutes help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__convert__subcmd__template__subcmd__help__subcmd__basic)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__convert__subcmd__template__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__convert__subcmd__template__subcmd__help__subcmd__substitutes)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__convert__subcmd__template__subcmd__substitutes)
            opts="-o -h --output --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --output)
                    COMPREPLY=($(compgen -W "json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "json yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__help)
            opts="render-graph upgrade-path render-template convert-template list resolve help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__help__subcmd__convert__subcmd__template)
            opts="basic substitutes"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__help__subcmd__convert__subcmd__template__subcmd__basic)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__help__subcmd__convert__subcmd__template__subcmd__substitutes)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__help__subcmd__list)
            opts="packages channels bundles"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__help__subcmd__list__subcmd__bundles)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__help__subcmd__list__subcmd__channels)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__help__subcmd__list__subcmd__packages)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__help__subcmd__render__subcmd__graph)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__help__subcmd__render__subcmd__template)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__help__subcmd__resolve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__help__subcmd__upgrade__subcmd__path)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__list)
            opts="-h --color --help packages channels bundles help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__list__subcmd__bundles)
            opts="-h --use-http --skip-tls-verify --skip-tls --no-cache --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__list__subcmd__channels)
            opts="-h --use-http --skip-tls-verify --skip-tls --no-cache --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__list__subcmd__help)
            opts="packages channels bundles help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__list__subcmd__help__subcmd__bundles)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__list__subcmd__help__subcmd__channels)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__list__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__list__subcmd__help__subcmd__packages)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__list__subcmd__packages)
            opts="-h --use-http --skip-tls-verify --skip-tls --no-cache --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__render__subcmd__graph)
            opts="-p -h --minimum-edge --package-name --draw-v0-semantics --use-http --skip-tls-verify --skip-tls --no-cache --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --minimum-edge)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --package-name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -p)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__render__subcmd__template)
            opts="-o -j -h --output --migrate-level --jobs --offline --check --use-http --skip-tls-verify --skip-tls --no-cache --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --output)
                    COMPREPLY=($(compgen -W "json yaml mermaid" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "json yaml mermaid" -- "${cur}"))
                    return 0
                    ;;
                --migrate-level)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --jobs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --check)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__resolve)
            opts="-f -o -h --catalog --file --every-package --source --channel --starting-csv --priority --global-namespace --namespace --output --use-http --skip-tls-verify --skip-tls --no-cache --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --catalog)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --source)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --channel)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --starting-csv)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --priority)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --global-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__alpha__subcmd__upgrade__subcmd__path)
            opts="-o -h --package --from --from-version --to --channel --every-bundle --all-channels --semantics --output --use-http --skip-tls-verify --skip-tls --no-cache --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --package)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --from-version)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --channel)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --semantics)
                    COMPREPLY=($(compgen -W "classic v1 both" -- "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__build)
            opts="-t -o -h --tag --output --base --label --cache --print-digest --use-http --skip-tls-verify --skip-tls --no-cache --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --tag)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -t)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --base)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --label)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__completions)
            opts="-h --color --help bash elvish fish powershell zsh"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__diff)
            opts="-o -h --base --output --allow --semantics --use-http --skip-tls-verify --skip-tls --no-cache --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --base)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "text markdown html json gitlab" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text markdown html json gitlab" -- "${cur}"))
                    return 0
                    ;;
                --allow)
                    COMPREPLY=($(compgen -W "package-removed channel-removed installation-stranded installation-stuck head-moved-back head-removed bundle-changed" -- "${cur}"))
                    return 0
                    ;;
                --semantics)
                    COMPREPLY=($(compgen -W "classic v1 both" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__generate)
            opts="-h --color --help dockerfile help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__generate__subcmd__dockerfile)
            opts="-i -b -l -o -h --runtime --base-image --binary-image --builder-image --extra-labels --output --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --runtime)
                    COMPREPLY=($(compgen -W "opm fbc" -- "${cur}"))
                    return 0
                    ;;
                --base-image)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -i)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --binary-image)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --builder-image)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -b)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --extra-labels)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -l)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__generate__subcmd__help)
            opts="dockerfile help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__generate__subcmd__help__subcmd__dockerfile)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__generate__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__graph)
            opts="-o -p -h --output --minimum-edge --package-name --package --draw-v0-semantics --use-http --skip-tls-verify --skip-tls --no-cache --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --output)
                    COMPREPLY=($(compgen -W "mermaid dot json svg" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "mermaid dot json svg" -- "${cur}"))
                    return 0
                    ;;
                --minimum-edge)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --package)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --package-name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -p)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__help)
            opts="render validate graph diff serve build generate init alpha completions man version help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__help__subcmd__alpha)
            opts="render-graph upgrade-path render-template convert-template list resolve"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__help__subcmd__alpha__subcmd__convert__subcmd__template)
            opts="basic substitutes"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__help__subcmd__alpha__subcmd__convert__subcmd__template__subcmd__basic)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__help__subcmd__alpha__subcmd__convert__subcmd__template__subcmd__substitutes)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__help__subcmd__alpha__subcmd__list)
            opts="packages channels bundles"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__help__subcmd__alpha__subcmd__list__subcmd__bundles)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__help__subcmd__alpha__subcmd__list__subcmd__channels)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__help__subcmd__alpha__subcmd__list__subcmd__packages)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__help__subcmd__alpha__subcmd__render__subcmd__graph)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__help__subcmd__alpha__subcmd__render__subcmd__template)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__help__subcmd__alpha__subcmd__resolve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__help__subcmd__alpha__subcmd__upgrade__subcmd__path)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__help__subcmd__build)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__help__subcmd__completions)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__help__subcmd__diff)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__help__subcmd__generate)
            opts="dockerfile"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__help__subcmd__generate__subcmd__dockerfile)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__help__subcmd__graph)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__help__subcmd__init)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__help__subcmd__man)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__help__subcmd__render)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__help__subcmd__serve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__help__subcmd__validate)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__help__subcmd__version)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__init)
            opts="-c -d -i -o -h --default-channel --description --icon --output --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --default-channel)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -c)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --description)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -d)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --icon)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -i)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -W "json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "json yaml" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__man)
            opts="-h --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__render)
            opts="-o -h --output --migrate-level --migrate --image-ref-template --use-http --skip-tls-verify --skip-tls --no-cache --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --output)
                    COMPREPLY=($(compgen -W "json yaml" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "json yaml" -- "${cur}"))
                    return 0
                    ;;
                --migrate-level)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --image-ref-template)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__serve)
            opts="-p -t -h --port --termination-log --debug --cache-dir --cache-only --cache-enforce-integrity --http-port --catalog-name --pprof-addr --pprof-capture-profiles --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --port)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -p)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --termination-log)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -t)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cache-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cache-enforce-integrity)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --http-port)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --catalog-name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pprof-addr)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__validate)
            opts="-o -q -h --output --strict --quiet --allow --check-dependencies --with-catalog --use-http --skip-tls-verify --skip-tls --no-cache --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --output)
                    COMPREPLY=($(compgen -W "text json yaml sarif github gitlab" -- "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -W "text json yaml sarif github gitlab" -- "${cur}"))
                    return 0
                    ;;
                --allow)
                    COMPREPLY=($(compgen -W "skip-range-extra-head replaces-unknown-bundle image-not-pinned bundle-object-present schema-property yaml-implicit-type empty-catalog dependency-unsatisfiable dependency-search-gave-up" -- "${cur}"))
                    return 0
                    ;;
                --with-catalog)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        fbc__subcmd__version)
            opts="-h --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _fbc -o nosort -o bashdefault -o default fbc
else
    complete -F _fbc -o bashdefault -o default fbc
fi
