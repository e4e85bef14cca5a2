# A 4x16 by 16x16 int8 matmul with per-channel requantization (default machine).
load buf=input row=0 dram=0x0 rows=4 row_bytes=16 stride=16 pad=0 pad_top=0 pad_bottom=0 pad_left=0
load buf=weight row=0 dram=0x100 rows=16 row_bytes=16 stride=16 pad=0 pad_top=0 pad_bottom=0 pad_left=0
load buf=params row=0 dram=0x200 rows=16 row_bytes=16 stride=16 pad=0 pad_top=0 pad_bottom=0 pad_left=0
signal queue=ld2cp
wait queue=ld2cp
matmul in=0 w=0 acc=0 m=4 k_tiles=1 accumulate=0 in_step=1 k_step=0 buf=input
requant acc=0 out=0 rows=4 params=0 zp=-3 lo=-128 hi=127 round=double
signal queue=cp2st
wait queue=cp2st
store buf=output row=0 dram=0x400 rows=4 row_bytes=16 stride=16
halt
