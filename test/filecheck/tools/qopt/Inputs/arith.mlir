func.func @f(%x: i32) -> (i32, i32) {
  %c1 = arith.constant 1 : i32
  %c1b = arith.constant 1 : i32
  %a = arith.addi %x, %c1 : i32
  %b = arith.addi %x, %c1b : i32
  %dead = arith.muli %a, %b : i32
  func.return %a, %b : i32, i32
}
func.func @g(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %a = arith.addi %x, %c0 : i32
  func.return %a : i32
}
