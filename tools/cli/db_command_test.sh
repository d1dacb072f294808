#!/usr/bin/env bash
# `tg db` against SQLite files: a fixture database (4 records, one of an old codegen version,
# and 3 journal rows) is exported, imported into a fresh file, merged with better results,
# inspected with stats and show, and a record dropped; gc drops the old record and the finished search's
# journal; bad input fails clearly and imports nothing; a database that does not exist is an
# error for every command but import, and nothing is made for it.
# Arguments: the tg binary, the tuning_db_fixture binary.
set -u
source tests/tg_test_lib.sh
tg_args=(db)

tg="$1"
fixture="$2"
out="${TEST_TMPDIR:-$(mktemp -d)}/db_command_test"
rm -rf "$out"
mkdir -p "$out"
# The default database must never be touched: point the cache somewhere empty.
export TG_CACHE_DIR="$out/cache"

a="$out/a.db"
b="$out/b.db"
"$fixture" "$a" || fail "fixture"

run stats_a 0 --db "$a" stats
expect_in "$out/stats_a.out" "records: 4"
expect_in "$out/stats_a.out" "journal rows: 3"
expect_in "$out/stats_a.out" "candidates timed: 292"
expect_in "$out/stats_a.out" "       1  tg::LLVMRenderer"
expect_in "$out/stats_a.out" "       3  tg::ClangRenderer"
expect_in "$out/stats_a.out" "       1  00112233445566778899aabbccddeeff  CPU | Intel Xeon | avx2 | 8 cores"
expect_in "$out/stats_a.out" "       1  codegen 0.0.9, opt semantics 1"

# Export to a file and to stdout: the same lines, one per record, with provenance.
run export_a 0 --db "$a" export --out "$out/a.jsonl"
expect_in "$out/export_a.err" "exported 4 records"
[[ $(wc -l <"$out/a.jsonl") -eq 4 ]] || fail "export wrote $(wc -l <"$out/a.jsonl") lines, want 4"
expect_in "$out/a.jsonl" '"worker":"worker-3/pid 4242","host":"node7.lan","samples_s":[0.00125,0.001,0.101]'
run export_stdout 0 export --db="$a"
cmp -s "$out/export_stdout.out" "$out/a.jsonl" || fail "export to stdout differs from --out"

# Import into a fresh database: the same records, field for field.
run import_b 0 --db "$b" import "$out/a.jsonl"
expect_in "$out/import_b.out" "4 records read, 4 stored"
run export_b 0 --db "$b" export --out "$out/b.jsonl"
cmp -s "$out/a.jsonl" "$out/b.jsonl" || fail "export of the imported database differs"
run import_again 0 --db "$b" import "$out/a.jsonl"
expect_in "$out/import_again.out" "4 records read, 0 stored (new or faster), 4 kept"

# Merge better results: the faster one wins, the new one is added.
"$fixture" --better >"$out/better.jsonl" || fail "fixture --better"
run merge 0 --db "$b" import "$out/better.jsonl"
expect_in "$out/merge.out" "2 records read, 2 stored"
key1="$(head -c 200 "$out/better.jsonl" | sed -n 's/^{"key":"\([0-9a-f]*\)".*/\1/p')"
[[ ${#key1} -eq 32 ]] || fail "could not read the first key from better.jsonl"
run show 0 --db "$b" show "${key1:0:8}"
expect_in "$out/show.out" "key:                 $key1"
expect_in "$out/show.out" "time:                0.0005 s"
expect_in "$out/show.out" "measured by:         site-b worker 1 on node7.lan"
expect_in "$out/show.out" 'opts:                [["UPCAST",0,4],["UNROLL",0,4],["TC",0,[-1,2,1]],["NOLOCALS",null,null]]'
run show_all 0 --db "$b" show ""
[[ $(grep -c '^key:' "$out/show_all.out") -eq 5 ]] || fail "show '' should print all 5 records"
run show_none 1 --db "$b" show zzzz
expect_in "$out/show_none.err" "no record whose key starts with 'zzzz'"

# Drop: every KEY names one record, or nothing goes.
run drop_some_unknown 1 --db "$b" drop "${key1:0:8}" zzzz ""
expect_in "$out/drop_some_unknown.err" "no record whose key starts with 'zzzz'"
expect_in "$out/drop_some_unknown.err" "an empty KEY would name every record"
expect_in "$out/drop_some_unknown.err" "nothing was dropped from sqlite:$b"
run drop_kept 0 --db "$b" show "$key1"
"$fixture" --many >"$out/many.jsonl" || fail "fixture --many"
run import_many 0 --db "$out/many.db" import "$out/many.jsonl"
shared="$(sed -n 's/^{"key":"\(.\).*/\1/p' "$out/many.jsonl" | sort | uniq -d | head -1)"
[[ -n $shared ]] || fail "17 keys share a first digit"
run drop_ambiguous 1 --db "$out/many.db" drop "$shared"
expect_in "$out/drop_ambiguous.err" "'$shared' starts "
expect_in "$out/drop_ambiguous.err" "give more of the one to drop"
run many_stats 0 --db "$out/many.db" stats
expect_in "$out/many_stats.out" "records: 17"
run drop 0 --db "$b" drop "${key1:0:8}" "$key1"
expect_in "$out/drop.out" "dropped $key1 ("
[[ $(grep -c dropped "$out/drop.out") -eq 1 ]] || fail "one record named twice is dropped once"
run drop_gone 1 --db "$b" show "$key1"
run drop_stats 0 --db "$b" stats
expect_in "$out/drop_stats.out" "records: 4"

# A bad line: its number in the error, and nothing of the file imported.
c="$out/c.db"
{ sed -n 1p "$out/a.jsonl"; echo; sed -n 2p "$out/a.jsonl"; echo '{"key": "broken"'; } >"$out/bad.jsonl"
run import_bad 1 --db "$c" import "$out/bad.jsonl"
expect_in "$out/import_bad.err" "bad.jsonl:4: bad JSON"
expect_in "$out/import_bad.err" "nothing was imported"
[[ ! -e $c ]] || fail "a failed import made $c"
run stats_c 1 --db "$c" stats
expect_in "$out/stats_c.err" "tg db: tuning database $c does not exist"
sed 's/"time_s":0.001,/"time_s":-1,/' "$out/a.jsonl" >"$out/neg.jsonl"
run import_neg 1 --db "$c" import "$out/neg.jsonl"
neg_line="$(grep -n '"time_s":-1,' "$out/neg.jsonl" | cut -d: -f1)"
expect_in "$out/import_neg.err" "neg.jsonl:$neg_line: tuning record: time_s -1 is not a finite time"
run import_missing 1 --db "$c" import "$out/nope.jsonl"
expect_in "$out/import_missing.err" "cannot read"

# gc: the old codegen version's record and the finished search's 2 journal rows go.
run gc_dry 0 --db "$a" gc --dry-run
expect_in "$out/gc_dry.out" "would drop 1 records of other versions"
expect_in "$out/gc_dry.out" "2 journal rows of finished searches"
run stats_after_dry 0 --db "$a" stats
expect_in "$out/stats_after_dry.out" "records: 4"
run gc 0 --db "$a" gc
expect_in "$out/gc.out" "dropped 1 records"
run stats_after_gc 0 --db "$a" stats
expect_in "$out/stats_after_gc.out" "records: 3"
expect_in "$out/stats_after_gc.out" "journal rows: 1"
expect_not_in "$out/stats_after_gc.out" "0.0.9"

# A database that does not exist: the commands that read (or trim) it fail naming it and make
# nothing, not even its folder; import makes the file but not a missing folder.
missing_dir="$out/no/such/dir"
for cmd in stats "show abc" export "drop abc" gc; do
  name="missing_${cmd%% *}"
  run "$name" 1 --db "$missing_dir/x.db" $cmd
  expect_in "$out/$name.err" "tg db: tuning database $missing_dir/x.db does not exist"
  run "${name}_here" 1 --db "sqlite:$out/missing.db" $cmd
  expect_in "$out/${name}_here.err" "tuning database $out/missing.db does not exist"
done
[[ ! -e $out/no ]] || fail "a read-only command made $out/no"
[[ ! -e $out/missing.db ]] || fail "a read-only command made $out/missing.db"
run import_no_dir 1 --db "$missing_dir/x.db" import "$out/a.jsonl"
expect_in "$out/import_no_dir.err" "its directory $missing_dir does not exist"
[[ ! -e $out/no ]] || fail "import made $out/no"
run import_new 0 --db "$out/new.db" import "$out/a.jsonl"
expect_in "$out/import_new.out" "4 records read, 4 stored"

# The default location (the cache directory, ours to make) and usage errors.
run default_stats_none 1 stats
expect_in "$out/default_stats_none.err" "tuning database $TG_CACHE_DIR/tuning.db does not exist"
[[ ! -e $TG_CACHE_DIR ]] || fail "stats made the cache directory"
run default_import 0 import "$out/a.jsonl"
run default_stats 0 stats
expect_in "$out/default_stats.out" "database: sqlite:$TG_CACHE_DIR/tuning.db"
expect_in "$out/default_stats.out" "records: 4"
run help 0 --help
expect_in "$out/help.out" "Usage: tg db [OPTIONS] SUBCOMMAND"
run no_cmd 2
expect_in "$out/no_cmd.err" "tg db: A subcommand is required"
run bad_cmd 2 frobnicate
expect_in "$out/bad_cmd.err" "tg db: The following argument was not expected: frobnicate"
run show_no_key 2 show
expect_in "$out/show_no_key.err" "KEY is required"
run gc_bad 2 gc --now
expect_in "$out/gc_bad.err" "--now"
run db_no_value 2 stats --db
expect_in "$out/db_no_value.err" "tg db: --db: 1 required"
run garbage 1 --db "$out/a.jsonl" stats
expect_in "$out/garbage.err" "not a SQLite database"

finish "tg db"
