//! What a solution prints: the FlatZinc output format, and output annotations that do not
//! fit their arrays.

use crate::run_all;

/// SEND + MORE = MONEY as MiniZinc writes it: one answer, 9567 + 1085 = 10652.
const SEND_MORE: &str = "\
predicate fzn_all_different_int(array [int] of var int: x);
var 1..9: S :: output_var;
var 0..9: E :: output_var;
var 0..9: N :: output_var;
var 0..9: D :: output_var;
var 1..9: M :: output_var;
var 0..9: O :: output_var;
var 0..9: R :: output_var;
var 0..9: Y :: output_var;
array [1..8] of var int: all :: output_array([1..2, 1..4]) = [S,E,N,D,M,O,R,Y];
constraint fzn_all_different_int(all);
constraint int_lin_eq([1000,100,10,1,1000,100,10,1,-10000,-1000,-100,-10,-1],[S,E,N,D,M,O,R,E,M,O,N,E,Y],0);
solve :: int_search(all, input_order, indomain_min, complete) satisfy;
";

#[test]
fn send_more_money_prints_as_flatzinc_asks() {
    let out = run_all(SEND_MORE, None);
    assert_eq!(
        out,
        "S = 9;\nE = 5;\nN = 6;\nD = 7;\nM = 1;\nO = 0;\nR = 8;\nY = 2;\n\
         all = array2d(1..2, 1..4, [9, 5, 6, 7, 1, 0, 8, 2]);\n----------\n==========\n"
    );
}
