;; The stage-1 bootstrap's sums over drawn items (see packed-sums-wasm.ts): each item's lanes
;; are doubles holding several models' 0/1 responses as digits; a resample's lane sums are
;; whole numbers below 2^53, exact in any order. Two accumulator sets take alternate draws, so
;; that one draw's additions need not wait for the previous draw's.
;; Assemble: wat2wasm --enable-simd packed-sums.wat (wabt 1.0.37).
(module
  (import "env" "memory" (memory 1))

  ;; Eight lanes an item (item k's at packed + idx[k] * 64): sums to out[0..8).
  (func (export "sum8") (param $idx i32) (param $count i32) (param $packed i32) (param $out i32)
    (local $k i32) (local $b i32) (local $c i32)
    (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128)
    (local $t0 v128) (local $t1 v128) (local $t2 v128) (local $t3 v128)
    (block $done
      (loop $pairs
        (br_if $done (i32.ge_u (i32.add (local.get $k) (i32.const 1)) (local.get $count)))
        (local.set $b (i32.add (local.get $packed)
          (i32.shl (i32.load (i32.add (local.get $idx) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 6))))
        (local.set $c (i32.add (local.get $packed)
          (i32.shl (i32.load offset=4 (i32.add (local.get $idx) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 6))))
        (local.set $s0 (f64x2.add (local.get $s0) (v128.load (local.get $b))))
        (local.set $s1 (f64x2.add (local.get $s1) (v128.load offset=16 (local.get $b))))
        (local.set $s2 (f64x2.add (local.get $s2) (v128.load offset=32 (local.get $b))))
        (local.set $s3 (f64x2.add (local.get $s3) (v128.load offset=48 (local.get $b))))
        (local.set $t0 (f64x2.add (local.get $t0) (v128.load (local.get $c))))
        (local.set $t1 (f64x2.add (local.get $t1) (v128.load offset=16 (local.get $c))))
        (local.set $t2 (f64x2.add (local.get $t2) (v128.load offset=32 (local.get $c))))
        (local.set $t3 (f64x2.add (local.get $t3) (v128.load offset=48 (local.get $c))))
        (local.set $k (i32.add (local.get $k) (i32.const 2)))
        (br $pairs)))
    (if (i32.lt_u (local.get $k) (local.get $count))
      (then
        (local.set $b (i32.add (local.get $packed)
          (i32.shl (i32.load (i32.add (local.get $idx) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 6))))
        (local.set $s0 (f64x2.add (local.get $s0) (v128.load (local.get $b))))
        (local.set $s1 (f64x2.add (local.get $s1) (v128.load offset=16 (local.get $b))))
        (local.set $s2 (f64x2.add (local.get $s2) (v128.load offset=32 (local.get $b))))
        (local.set $s3 (f64x2.add (local.get $s3) (v128.load offset=48 (local.get $b))))))
    (v128.store (local.get $out) (f64x2.add (local.get $s0) (local.get $t0)))
    (v128.store offset=16 (local.get $out) (f64x2.add (local.get $s1) (local.get $t1)))
    (v128.store offset=32 (local.get $out) (f64x2.add (local.get $s2) (local.get $t2)))
    (v128.store offset=48 (local.get $out) (f64x2.add (local.get $s3) (local.get $t3))))

  ;; Six lanes an item (item k's at packed + idx[k] * 48): sums to out[0..6).
  (func (export "sum6") (param $idx i32) (param $count i32) (param $packed i32) (param $out i32)
    (local $k i32) (local $b i32) (local $c i32)
    (local $s0 v128) (local $s1 v128) (local $s2 v128)
    (local $t0 v128) (local $t1 v128) (local $t2 v128)
    (block $done
      (loop $pairs
        (br_if $done (i32.ge_u (i32.add (local.get $k) (i32.const 1)) (local.get $count)))
        (local.set $b (i32.add (local.get $packed)
          (i32.mul (i32.load (i32.add (local.get $idx) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 48))))
        (local.set $c (i32.add (local.get $packed)
          (i32.mul (i32.load offset=4 (i32.add (local.get $idx) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 48))))
        (local.set $s0 (f64x2.add (local.get $s0) (v128.load (local.get $b))))
        (local.set $s1 (f64x2.add (local.get $s1) (v128.load offset=16 (local.get $b))))
        (local.set $s2 (f64x2.add (local.get $s2) (v128.load offset=32 (local.get $b))))
        (local.set $t0 (f64x2.add (local.get $t0) (v128.load (local.get $c))))
        (local.set $t1 (f64x2.add (local.get $t1) (v128.load offset=16 (local.get $c))))
        (local.set $t2 (f64x2.add (local.get $t2) (v128.load offset=32 (local.get $c))))
        (local.set $k (i32.add (local.get $k) (i32.const 2)))
        (br $pairs)))
    (if (i32.lt_u (local.get $k) (local.get $count))
      (then
        (local.set $b (i32.add (local.get $packed)
          (i32.mul (i32.load (i32.add (local.get $idx) (i32.shl (local.get $k) (i32.const 2)))) (i32.const 48))))
        (local.set $s0 (f64x2.add (local.get $s0) (v128.load (local.get $b))))
        (local.set $s1 (f64x2.add (local.get $s1) (v128.load offset=16 (local.get $b))))
        (local.set $s2 (f64x2.add (local.get $s2) (v128.load offset=32 (local.get $b))))))
    (v128.store (local.get $out) (f64x2.add (local.get $s0) (local.get $t0)))
    (v128.store offset=16 (local.get $out) (f64x2.add (local.get $s1) (local.get $t1)))
    (v128.store offset=32 (local.get $out) (f64x2.add (local.get $s2) (local.get $t2)))))
