// qrun --compare: exact for integers, cosine/SQNR/max error for floats, exit 1 on a failed threshold.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python -c "import numpy as np; np.savez('%t/a.npz', f=np.array([1.0, 2.0, 3.0], np.float32), i=np.array([1, 2, 3], np.int8), only_a=np.zeros(2))"
// RUN: python -c "import numpy as np; np.savez('%t/b.npz', f=np.array([1.0, 2.0, 3.1], np.float32), i=np.array([1, 2, 4], np.int8), only_b=np.zeros(2))"
// RUN: not qrun --compare %t/a.npz %t/b.npz | FileCheck %s
// CHECK: f {{.*}} 3 {{.*}} 0.999878 {{.*}} 31.65 {{.*}} 0.1 {{.*}} 1  ok
// CHECK: i {{.*}} 3 {{.*}} - {{.*}} - {{.*}} 1 {{.*}} 1  FAIL
// CHECK: only_a {{.*}} FAIL (missing from the second file)
// CHECK: only_b {{.*}} FAIL (missing from the first file)
// CHECK: 1 passed, 3 failed
// RUN: not qrun --compare %t/a.npz %t/b.npz --min-sqnr 40 | FileCheck %s --check-prefix=SQNR
// SQNR: f {{.*}}  FAIL
