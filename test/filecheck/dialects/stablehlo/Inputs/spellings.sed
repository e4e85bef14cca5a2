s/^([ ]*)builtin\.module/\1module/
s/func\.return/return/g
s/func\.call /call /g
s/^([ ]*func\.func[^{]*\)) -> \(\)/\1/
/^[ ]*$/d
