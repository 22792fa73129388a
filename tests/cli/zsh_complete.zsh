# zsh -f zsh_complete.zsh FUNCTIONS_DIR LINE (tst_cli_help)
# Prints, one per line as <<match>>, what zsh's completion offers on TAB after the words in $2, with
# the completion functions in the folder $1. Drives a real interactive zsh through a pty (zpty) and
# wraps compadd to print what it is given.
zmodload zsh/zpty || exit 3
zpty z zsh -f -i
zpty -w z "PROMPT= ; fpath=(${(q)1} \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z 'compadd () { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi; typeset -a hits; builtin compadd -A hits "$@"; (( $#hits == 0 )) && return 1; local h; for h in $hits; do print -r -- "<""<${h}>>"; done; builtin compadd "$@"; }'
zpty -w z "zstyle ':completion:*' menu no; bindkey '^I' complete-word"
zpty -w -n z "$2"$'\t'
# Clear the line, then a marker typed as MARK''-DONE and printed as MARK-DONE: reading up to the
# printed one waits for the completion to be over.
zpty -w -n z $'\C-a\C-k'
zpty -w z "print -r -- MARK''-DONE"
zpty -r z out '*MARK-DONE*' || exit 4
print -r -- ${(F)${(M)${(f)out}:#*<<*>>*}}
zpty -d z
