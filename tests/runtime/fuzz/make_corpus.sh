#!/usr/bin/env bash
# Regenerates corpus/agent_message/seed-* from seeds.txt with protoc --encode: each seed
# once for the signed path (first byte 0) and once as raw frames (first byte 1, after a
# wire header). Inputs the fuzzer finds are added to corpus/ by hand (libFuzzer's -merge).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out="$here/corpus/agent_message"
mkdir -p "$out"
rm -f "$out"/seed-*
i=0
awk -v RS='\n---\n' '{ print > sprintf("/tmp/zmpi-seed-%02d.txt", NR) }' <(grep -v '^#' "$here/seeds.txt")
for text in /tmp/zmpi-seed-*.txt; do
  payload=$(mktemp)
  protoc --encode=zmpi.runtime.proto.AgentMessage -I"$root" runtime/common/agent_protocol.proto <"$text" >"$payload"
  { printf '\x00'; cat "$payload"; } >"$out/seed-$i-signed"
  # Wire header: magic "ZMPI", version 1, kind 0x0200, job hash 0, payload size, 48 zero bytes.
  size=$(stat -c %s "$payload")
  {
    printf '\x01ZMPI\x01\x00\x00\x02'
    printf '\x00\x00\x00\x00\x00\x00\x00\x00'
    printf "$(printf '\\x%02x' $((size & 255)) $(((size >> 8) & 255)) $(((size >> 16) & 255)) 0 0 0 0 0)"
    head -c 48 /dev/zero
    cat "$payload"
  } >"$out/seed-$i-raw"
  rm -f "$payload" "$text"
  i=$((i + 1))
done
echo "wrote $((i * 2)) seeds to $out"
