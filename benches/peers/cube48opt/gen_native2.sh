#!/bin/bash
# like gen_native.sh, but runs each generation in its own empty working directory
# (the wasm tries to read, and after generating writes, its table file h48prun*.dat in the cwd;
#  a leftover file there would be read instead of generating)
PEERS=${PEERS:-$PWD}
cd $PEERS
for n in "$@"; do
  out=$PEERS/tables/cube48opt$n.dat; [ -f $out ] && out=$PEERS/tables/cube48opt$n.native.dat
  d=$PEERS/gencwd/opt$n; rm -rf $d; mkdir -p $d
  echo "=== opt$n -> $out $(date +%T)"
  (cd $d && /usr/bin/time -v nice -n 10 $PEERS/w2c/cube48opt$n gen 2 $out > $PEERS/logs/gen-native-opt$n.log 2> $PEERS/logs/gen-native-opt$n.time)
  echo "rc=$? $(date +%T)"; ls -la $d
done
