#!/usr/bin/env bash
# Sets up tack on this machine: system libraries, a release build, and an installation into
# $PREFIX (default ~/.local); with --dev, a machine to develop tack on (libraries and test
# tools; `swift build` and `swift test` build the rest). Safe to run again: it only does what
# is missing.
set -euo pipefail

usage() {
    cat <<'USAGE'
Usage: ./bootstrap.sh [--prefix DIR] [--dev [--install]] [--no-install] [--help]

Installs the system libraries tack links with (libgit2, libyaml, libarchive, zlib, libcurl, libcrypto, pkg-config),
and on Linux what a Swift toolchain from swift.org needs (git, a C toolchain, its libraries),
through apt-get, dnf or Homebrew — with sudo when not root, asked once before anything is
installed — checks for a Swift 6 toolchain, builds tack in release mode, and installs it:

  $PREFIX/bin/tack                  the command, and what shims link to
  $PREFIX/libexec/tack/tack-front   the hot commands' slow path, run by `tack`
  $PREFIX/libexec/tack/tack-cli     the rest of tack
  $PREFIX/share/tack/templates      the `tack new` templates

Options:
  --prefix DIR    install under DIR (default: $PREFIX, else ~/.local)
  --dev           set up for developing tack instead: the libraries, and what tack's own
                  tests and benchmarks use (shellcheck, hyperfine, bash, zsh, fish, rbenv,
                  direnv, ruby and its headers, python3 with venv, pip and cryptography, gnupg,
                  docker-registry, skopeo, debootstrap, and uv in ~/.local/bin); no release
                  build and no installation (`swift test` and bench/ build what they run)
  --install       with --dev, also build release and install, as without --dev
  --no-install    build, but do not install into the prefix
  -h, --help      show this help

Running it again changes nothing that is already in place.
USAGE
}

prefix="${PREFIX:-$HOME/.local}"
dev=0
install=1
build=1
also_install=0
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] || { echo "bootstrap.sh: --prefix needs a directory" >&2; exit 2; }; prefix="$2"; shift 2 ;;
        --prefix=*) prefix="${1#--prefix=}"; shift ;;
        --dev) dev=1; shift ;;
        --install) also_install=1; shift ;;
        --no-install) install=0; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "bootstrap.sh: unknown option '$1' (see ./bootstrap.sh --help)" >&2; exit 2 ;;
    esac
done

if [ "$dev" -eq 1 ] && [ "$also_install" -eq 0 ]; then build=0; fi

say() { printf '==> %s\n' "$*"; }
die() { printf 'bootstrap.sh: %s\n' "$*" >&2; exit 1; }

cd "$(dirname "$0")"

# Root for the package manager: this user, or sudo, asked once before anything is installed
# (a password prompt now, not in the middle of a build). Without either, the exact commands
# for an administrator.
root_ready=0
need_root() { # the commands an administrator would run
    [ "$(id -u)" -eq 0 ] && return 0
    [ "$root_ready" -eq 1 ] && return 0
    if command -v sudo >/dev/null 2>&1; then
        if sudo -n true 2>/dev/null || { [ -t 0 ] && say "installing system packages needs root: sudo asks for your password" && sudo -v; }; then
            root_ready=1
            return 0
        fi
    fi
    printf 'bootstrap.sh: installing system packages needs root, and sudo is not available to you here. Ask an administrator to run:\n' >&2
    printf '    %s\n' "$@" >&2
    printf 'then run ./bootstrap.sh again.\n' >&2
    exit 1
}

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

install_packages() {
    local missing=()
    if command -v apt-get >/dev/null 2>&1; then
        # tack's libraries; then what a Swift toolchain unpacked from swift.org needs to run
        # and link (its libraries, a C toolchain, git for SwiftPM, certificates for HTTPS).
        local pkgs=(libgit2-dev libyaml-dev libarchive-dev zlib1g-dev libcurl4-openssl-dev libssl-dev pkg-config
                    ca-certificates git binutils gcc g++ libc6-dev libxml2 libsqlite3-0 libncurses6 tzdata)
        [ "$dev" -eq 1 ] && pkgs+=(shellcheck hyperfine bash zsh fish rbenv direnv ruby ruby-dev python3 python3-venv python3-pip python3-jsonschema python3-cryptography gnupg minisign tinyproxy docker-registry skopeo apache2-utils curl openssl debootstrap)
        for p in "${pkgs[@]}"; do
            dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
        done
        if [ ${#missing[@]} -gt 0 ]; then
            need_root "apt-get update" "DEBIAN_FRONTEND=noninteractive apt-get install -y ${missing[*]}"
            say "installing with apt-get: ${missing[*]}"
            as_root apt-get update -q
            as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
        fi
    elif command -v dnf >/dev/null 2>&1; then
        local pkgs=(libgit2-devel libyaml-devel libarchive-devel zlib-devel libcurl-devel openssl-devel pkgconf-pkg-config
                    ca-certificates git binutils gcc gcc-c++ glibc-devel libxml2 sqlite-libs ncurses-libs tzdata)
        [ "$dev" -eq 1 ] && pkgs+=(ShellCheck hyperfine bash zsh fish rbenv direnv ruby ruby-devel python3 python3-pip python3-jsonschema python3-cryptography minisign tinyproxy)
        for p in "${pkgs[@]}"; do rpm -q "$p" >/dev/null 2>&1 || missing+=("$p"); done
        if [ ${#missing[@]} -gt 0 ]; then
            need_root "dnf install -y ${missing[*]}"
            say "installing with dnf: ${missing[*]}"
            as_root dnf install -y "${missing[@]}"
        fi
    elif command -v brew >/dev/null 2>&1; then
        local pkgs=(libgit2 libyaml libarchive openssl@3 pkg-config)
        [ "$dev" -eq 1 ] && pkgs+=(shellcheck hyperfine zsh fish rbenv direnv ruby python minisign)
        for p in "${pkgs[@]}"; do brew list --versions "$p" >/dev/null 2>&1 || missing+=("$p"); done
        if [ ${#missing[@]} -gt 0 ]; then
            say "installing with Homebrew: ${missing[*]}"
            brew install "${missing[@]}"
        fi
        # libarchive and openssl@3 are keg-only: pkg-config finds them only when told where.
        local keg
        for keg in libarchive openssl@3; do
            PKG_CONFIG_PATH="$(brew --prefix "$keg")/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
        done
        export PKG_CONFIG_PATH
    else
        die "no supported package manager (apt-get, dnf, brew) found: install libgit2, libyaml, libarchive, zlib, libcurl, OpenSSL (libcrypto) and pkg-config yourself, then run this again"
    fi
    [ ${#missing[@]} -eq 0 ] && say "system packages: already installed"
    return 0
}

find_swift() {
    if ! command -v swift >/dev/null 2>&1; then
        for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
            if [ -x "$dir/swift" ]; then
                say "using the Swift toolchain in $dir (not on PATH)"
                PATH="$dir:$PATH"
                break
            fi
        done
    fi
    command -v swift >/dev/null 2>&1 || die "no Swift toolchain found. Install Swift 6 from https://www.swift.org/install/ (on macOS, Xcode 16 or later), put its usr/bin on PATH, and run ./bootstrap.sh again"
    local version major
    version="$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9][0-9.]*\).*/\1/p' | head -n 1)"
    major="${version%%.*}"
    if [ -z "$major" ] || [ "$major" -lt 6 ]; then
        die "tack needs Swift 6 or later, but $(command -v swift) is Swift ${version:-of an unknown version}. Install Swift 6 from https://www.swift.org/install/ and put it first on PATH"
    fi
    say "Swift $version at $(command -v swift)"
}

copy_if_changed() { # src dest mode
    if [ -f "$2" ] && cmp -s "$1" "$2"; then return 0; fi
    mkdir -p "$(dirname "$2")"
    install -m "$3" "$1" "$2.tmp.$$"
    mv -f "$2.tmp.$$" "$2"
    say "installed $2"
}

# uv (for the pip backend's tests and bench/pip), from PyPI into its own virtualenv, linked
# into ~/.local/bin: no system Python is changed.
install_uv() {
    if command -v uv >/dev/null 2>&1 || [ -x "$HOME/.local/bin/uv" ]; then
        say "uv: already installed"
        return 0
    fi
    local venv="$HOME/.local/share/tack-dev/uv"
    say "installing uv from PyPI into $venv"
    rm -rf "$venv"
    python3 -m venv "$venv" || die "python3 -m venv failed: install python3-venv (Debian) and run this again"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check uv || die "cannot install uv from PyPI"
    mkdir -p "$HOME/.local/bin"
    ln -sf "$venv/bin/uv" "$HOME/.local/bin/uv"
}

install_packages
if [ "$dev" -eq 1 ]; then install_uv; fi
find_swift
if [ "$build" -eq 0 ]; then
    say "ready to develop tack: \`swift build\`, \`swift test\` (./bootstrap.sh --dev --install also builds release and installs it)"
    exit 0
fi

say "building tack (release)"
swift build -c release --product tack
# On Linux, tack-cli and tack-front link the Swift runtime and Foundation statically: they start
# about a third faster (Foundation's networking then links libcurl, hence libcurl's headers
# above). Both with the same flags, so neither build undoes the other's and a second run of
# this script rebuilds nothing. (`tack` is Embedded Swift, static already, built apart.)
static=()
if [ "$(uname -s)" = Linux ]; then static=(--static-swift-stdlib); fi
swift build -c release --product tack-cli ${static[@]+"${static[@]}"}
swift build -c release --product tack-front ${static[@]+"${static[@]}"}
bin_dir="$(swift build -c release --show-bin-path)"

if [ "$install" -eq 0 ]; then
    say "built $bin_dir/tack (not installed: --no-install)"
    exit 0
fi

copy_if_changed "$bin_dir/tack" "$prefix/bin/tack" 755
copy_if_changed "$bin_dir/tack-cli" "$prefix/libexec/tack/tack-cli" 755
copy_if_changed "$bin_dir/tack-front" "$prefix/libexec/tack/tack-front" 755
if [ -e "$prefix/libexec/tack/tack-shim" ]; then
    # An earlier build linked shims to a separate tack-shim; they now link to tack itself.
    "$prefix/bin/tack" reshim >/dev/null 2>&1 || say "run \`tack reshim\` to point existing shims at $prefix/bin/tack"
    rm -f "$prefix/libexec/tack/tack-shim"
fi
if [ -d templates ] && [ -n "$(ls -A templates)" ]; then
    mkdir -p "$prefix/share/tack"
    rm -rf "$prefix/share/tack/templates.tmp.$$"
    cp -R templates "$prefix/share/tack/templates.tmp.$$"
    rm -rf "$prefix/share/tack/templates"
    mv "$prefix/share/tack/templates.tmp.$$" "$prefix/share/tack/templates"
fi

"$prefix/bin/tack" --version >/dev/null || die "the installed $prefix/bin/tack does not run"
say "tack $("$prefix/bin/tack" --version | sed 's/^tack //') is installed in $prefix/bin"
case ":$PATH:" in
    *":$prefix/bin:"*) say "next: cd into a project and run \`tack current\`" ;;
    *)
        say "add tack to your PATH, in ~/.bashrc or ~/.zshrc:"
        # shellcheck disable=SC2016  # $PATH is meant literally: the user's shell expands it.
        printf '    export PATH="%s/bin:$PATH"\n' "$prefix"
        ;;
esac
