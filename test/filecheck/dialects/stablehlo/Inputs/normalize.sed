s/%[A-Za-z_][A-Za-z0-9_$.]*|%[0-9]+/%V/g
s/^([ ]*)builtin\.module/\1module/
s/func\.return/return/g
s/func\.call /call /g
s/^([ ]*func\.func[^{]*\)) -> \(\)/\1/
/^[ ]*$/d
