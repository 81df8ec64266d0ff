#!/bin/sh
# Seeds the `parse` corpus from the repository's fixture contracts (corpus dirs are gitignored).
# Run from anywhere; copies whatever fixtures exist. The `structured` target needs no seeds.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
mkdir -p "$here/corpus/parse" "$here/corpus/structured"
for dir in contracts future refused; do
    [ -d "$root/fixtures/$dir" ] || continue
    for file in "$root/fixtures/$dir"/*; do
        [ -f "$file" ] || continue
        cp "$file" "$here/corpus/parse/$dir-$(basename "$file")"
    done
done
# Known crashes, kept as regressions, are seeds too.
if [ -d "$here/regressions" ]; then
    find "$here/regressions" -type f ! -name '*.md' -exec cp {} "$here/corpus/parse/" \;
fi
echo "seeded $(ls "$here/corpus/parse" | wc -l) files into $here/corpus/parse"
