#!/usr/bin/env bash
# Builds every libFuzzer harness in fuzz/<target>/Harness.swift into $FUZZ_OUT/bin/<target>.
#
# The gateway's library targets are built once by SwiftPM with coverage instrumentation
# (-sanitize=fuzzer) into $FUZZ_OUT/spm; each harness is then compiled against their modules
# and linked with their objects and libFuzzer's runtime (shipped with the Swift toolchain).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

OUT="${FUZZ_OUT:-.build/fuzz}"
SPM="$OUT/spm"
mkdir -p "$OUT/bin"

swift build -c release --target GatehouseCore -Xswiftc -sanitize=fuzzer --scratch-path "$SPM" >&2
BUILD="$(cd "$SPM/release" && pwd -P)"

objects=()
for module in CLinux GatehouseHTTP GatehouseIO GatehouseConfig GatehouseGraphQL GatehouseCore; do
    while IFS= read -r object; do objects+=("$object"); done \
        < <(find "$BUILD/$module.build" -name '*.o' | sort)
done

search=(-I "$BUILD/Modules" -I "$BUILD" -I Sources/CLinux/include -I Sources/COpenSSL -I Sources/CZlib
        -I Sources/CYAML -I Sources/CHiredis -Xcc -fmodule-map-file="$BUILD/CLinux.build/module.modulemap")

for harness in fuzz/*/Harness.swift; do
    target="$(basename "$(dirname "$harness")")"
    echo "fuzz: building $target" >&2
    swiftc -O -sanitize=fuzzer -parse-as-library -module-name "Fuzz_${target//-/_}" \
        "${search[@]}" "$harness" "${objects[@]}" -lssl -lcrypto -lz -lyaml -lhiredis \
        -o "$OUT/bin/$target"
done
