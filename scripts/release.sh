#!/usr/bin/env bash
# Builds kw's release archive for one target, its checksum, and the target's entry in the krew
# manifest. What the release workflow runs on each platform, and what a person runs by hand:
#
#   scripts/release.sh [--target TRIPLE] [--binary PATH] [--out DIR] [--manifest FILE]
#                      [--url-base URL] [--gzip-level 1-9]
#   scripts/release.sh --manifest-from DIR [--manifest FILE] [--url-base URL]
#
# The first form builds `cargo build --release --locked --target TRIPLE` (TRIPLE defaults to the
# host's), or takes an already built kw with --binary, and writes into DIR (default
# target/dist):
#   kw-VERSION-TRIPLE.tar.gz (.zip for Windows)  the binary as kw, and beside it kubectl-kw
#       (kubectl's plugin name) and kubectl_complete-kw (kubectl's plugin completion): on Unix
#       two small sh scripts that run that kw under their name, not symbolic links, since krew
#       refuses an archive holding anything but files and folders; on Windows copies of
#       kw.exe, since kubectl runs a plugin as an executable of its name, a .cmd wrapper would
#       have cmd.exe parse the arguments again (% ^ & and quotes), and symbolic links need
#       privileges there and are not unpacked by zip tools or krew; completions/ for every
#       shell; man/; LICENSE, README.md, CHANGELOG.md; all under one folder named like the
#       archive
#   kw-VERSION-TRIPLE.tar.gz.sha256               sha256sum's format: "HASH  NAME"
# then writes the archive's uri and sha256 into the manifest's platform for TRIPLE (default
# plugins/kw.yaml). The second form writes every platform from the .sha256 files in DIR (the
# release job's last step, once every platform is built).
#
# Reproducible: the same binary and tree give the same bytes. Every entry has the mtime
# SOURCE_DATE_EPOCH (default: the last commit's time), owner and group 0, mode 755 or 644, in
# name order, and gzip -n leaves out the name and time gzip would add. Needs GNU tar (gtar on
# macOS) for .tar.gz, python3 ($PYTHON) for .zip, sha256sum or shasum.
set -euo pipefail
cd "$(dirname "$0")/.."

die() {
    echo "release.sh: $*" >&2
    exit 1
}

target=""
binary=""
out="${CARGO_TARGET_DIR:-target}/dist"
manifest="plugins/kw.yaml"
url_base=""
gzip_level=9
manifest_from=""
while (($#)); do
    case "$1" in
        --target | --binary | --out | --manifest | --url-base | --gzip-level | --manifest-from)
            (($# >= 2)) || die "$1 needs a value"
            case "$1" in
                --target) target=$2 ;;
                --binary) binary=$2 ;;
                --out) out=$2 ;;
                --manifest) manifest=$2 ;;
                --url-base) url_base=$2 ;;
                --gzip-level) gzip_level=$2 ;;
                --manifest-from) manifest_from=$2 ;;
            esac
            shift 2
            ;;
        -h | --help)
            sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
            exit 0
            ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done
[[ $gzip_level =~ ^[1-9]$ ]] || die "--gzip-level must be 1 to 9, not '$gzip_level'"

version=$(sed -n 's/^version = "\([^"]*\)"$/\1/p' Cargo.toml | head -n 1)
[[ -n $version ]] || die "no version in Cargo.toml's [package]"
url_base=${url_base:-https://github.com/kw-cli/kw/releases/download/v$version}
url_base=${url_base%/}

sha256_of() {
    if command -v sha256sum > /dev/null; then
        sha256sum "$1" | cut -d' ' -f1
    elif command -v shasum > /dev/null; then
        shasum -a 256 "$1" | cut -d' ' -f1
    else
        die "neither sha256sum nor shasum is installed"
    fi
}

# Writes ARCHIVE's uri and SHA into the manifest's platform whose uri names the same target,
# and the plugin's version; fails when the manifest has no such platform.
update_manifest() {
    local archive=$1 sha=$2 triple
    triple=${archive#kw-"$version"-}
    triple=${triple%.tar.gz}
    triple=${triple%.zip}
    [[ -f $manifest ]] || die "no krew manifest at $manifest"
    local updated
    updated=$(awk -v triple="$triple" -v uri="$url_base/$archive" -v sha="$sha" \
        -v version="v$version" '
        function indent(line) { match(line, /^ */); return substr(line, 1, RLENGTH) }
        /^  version: / { print "  version: " version; next }
        /^ *uri: / {
            n = split($2, parts, "/"); name = parts[n]
            if (name ~ ("^kw-[^/]*-" triple "\\.(tar\\.gz|zip)$")) {
                print indent($0) "uri: " uri; pending = 1; found = 1; next
            }
        }
        pending && /^ *sha256: / { print indent($0) "sha256: \"" sha "\""; pending = 0; next }
        { print }
        END { if (!found || pending) exit 3 }
    ' "$manifest") || die "$manifest has no platform whose uri and sha256 name $triple"
    printf '%s\n' "$updated" > "$manifest"
    echo "$manifest: $triple -> $archive ($sha)" >&2
}

if [[ -n $manifest_from ]]; then
    [[ -z $target && -z $binary ]] || die "--manifest-from takes no --target or --binary"
    shopt -s nullglob
    sums=("$manifest_from"/kw-"$version"-*.sha256)
    ((${#sums[@]})) || die "no kw-$version-*.sha256 in $manifest_from"
    for sum in "${sums[@]}"; do
        read -r sha name < "$sum" || die "$sum is empty"
        [[ $sha =~ ^[0-9a-f]{64}$ ]] || die "$sum does not hold a sha256"
        update_manifest "$name" "$sha"
    done
    exit 0
fi

if [[ -z $target ]]; then
    target=$(rustc -vV | sed -n 's/^host: //p')
    [[ -n $target ]] || die "cannot tell the host's target triple from rustc -vV; pass --target"
fi
exe=""
format=tar.gz
case "$target" in
    *-windows-*)
        exe=.exe
        format=zip
        ;;
esac

if [[ -z $binary ]]; then
    echo "building kw $version for $target (cargo build --release --locked)" >&2
    cargo build --release --locked --target "$target" --bin kw >&2
    binary="${CARGO_TARGET_DIR:-target}/$target/release/kw$exe"
fi
[[ -f $binary ]] || die "no kw binary at $binary"
# A binary this machine can run must be the version it is packaged as.
if [[ $target == "$(rustc -vV | sed -n 's/^host: //p')" ]]; then
    said=$("$binary" version --client 2>&1) || die "$binary version --client failed: $said"
    [[ $said == *"v$version"* ]] || die "$binary says '$said', not v$version (Cargo.toml)"
fi

epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2> /dev/null || true)}
[[ $epoch =~ ^[0-9]+$ ]] || die "no SOURCE_DATE_EPOCH and no git commit to take the time from"

name="kw-$version-$target"
archive="$name.$format"
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$(mktemp -d "${TMPDIR:-/tmp}/kw-release.XXXXXX")
trap 'rm -rf "$stage"' EXIT
root="$stage/$name"
mkdir -p "$root/completions" "$root/man"
cp "$binary" "$root/kw$exe"
for plugin in kubectl-kw kubectl_complete-kw; do
    if [[ -n $exe ]]; then
        cp "$binary" "$root/$plugin$exe"
        continue
    fi
    # kw tells its plugin names by argv[0], which POSIX sh's exec cannot set: KW_PLUGIN_NAME
    # says it instead. kubectl runs the script by its path on PATH, maybe a link to it (krew's
    # caveat links kubectl_complete-kw): the kw it runs is the one beside the script itself.
    cat > "$root/$plugin" << SCRIPT
#!/bin/sh
# kubectl's $plugin for kw (https://github.com/kw-cli/kw): runs the kw beside this file.
self=\$0
while [ -h "\$self" ]; do
    link=\$(readlink "\$self")
    case \$link in
        /*) self=\$link ;;
        *) self=\$(dirname "\$self")/\$link ;;
    esac
done
KW_PLUGIN_NAME=$plugin exec "\$(dirname "\$self")/kw" "\$@"
SCRIPT
done
for script in kw.bash _kw kw.fish _kw.ps1 kw.elv; do
    [[ -f completions/$script ]] || die "completions/$script is missing (generated and checked in)"
    cp "completions/$script" "$root/completions/"
done
man_pages=(completions/man/*.1)
[[ -f ${man_pages[0]} ]] || die "no man pages in completions/man/"
cp "${man_pages[@]}" "$root/man/"
for doc in LICENSE README.md CHANGELOG.md; do
    [[ -f $doc ]] || die "$doc is missing"
    cp "$doc" "$root/"
done
find "$root" -type d -exec chmod 755 {} +
find "$root" -type f -exec chmod 644 {} +
chmod 755 "$root"/kw"$exe" "$root"/kubectl-kw"$exe" "$root"/kubectl_complete-kw"$exe"

rm -f "$out/$archive" "$out/$archive.sha256"
if [[ $format == tar.gz ]]; then
    tar=tar
    command -v gtar > /dev/null && tar=gtar
    "$tar" --version 2> /dev/null | grep -q 'GNU tar' ||
        die "GNU tar is needed for a reproducible .tar.gz (macOS: brew install gnu-tar)"
    "$tar" --create --format=gnu --sort=name --mtime="@$epoch" --owner=0 --group=0 \
        --numeric-owner -C "$stage" "$name" | gzip -n -"$gzip_level" > "$out/$archive"
else
    "${PYTHON:-python3}" - "$stage" "$name" "$epoch" "$out/$archive" << 'PY'
import os, sys, time, zipfile
stage, name, epoch, dest = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
# Zip keeps local time from 1980 on, in two-second steps.
stamp = max(time.gmtime(epoch)[:6], (1980, 1, 1, 0, 0, 0))
paths = []
for folder, dirs, files in os.walk(os.path.join(stage, name)):
    paths += [os.path.join(folder, f) for f in files]
with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
    for path in sorted(paths, key=lambda p: os.path.relpath(p, stage).replace(os.sep, "/")):
        info = zipfile.ZipInfo(os.path.relpath(path, stage).replace(os.sep, "/"), stamp)
        info.compress_type = zipfile.ZIP_DEFLATED
        info.create_system = 3  # Unix, so that the mode below is read
        program = os.path.dirname(path) == os.path.join(stage, name) and os.path.splitext(
            os.path.basename(path))[0] in ("kw", "kubectl-kw", "kubectl_complete-kw")
        info.external_attr = (0o100755 if program else 0o100644) << 16
        with open(path, "rb") as f:
            archive.writestr(info, f.read(), compresslevel=9)
PY
fi
sha=$(sha256_of "$out/$archive")
printf '%s  %s\n' "$sha" "$archive" > "$out/$archive.sha256"
update_manifest "$archive" "$sha"
echo "$out/$archive"
