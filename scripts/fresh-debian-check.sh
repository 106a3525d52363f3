#!/usr/bin/env bash
# The README's two commands on a clean Debian, as a newcomer runs them (issue 20): a Debian 12
# (bookworm) minbase chroot made with debootstrap from Debian's packages, with no compiler,
# cmake, valgrind, mono, Python or git in it; this machine's Rust toolchain is bound in
# (~/.rustup, ~/.cargo), a fresh clone of the committed tree is copied in, and the README's
# main command and then its test command run there as root.
#
#   sudo scripts/fresh-debian-check.sh [CHROOT_DIR]     (default /srv/hayanagi-fresh)
#
# Needs root (debootstrap, mount, chroot) and about 3 GB of disk; an existing CHROOT_DIR is
# reused (delete it for a clean start). The host's CA certificates are copied into the
# chroot (a proxy that re-signs HTTPS would otherwise break pip there). Prints each
# command's status and time; exits with the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
root=${1:-/srv/hayanagi-fresh}
[[ $(id -u) == 0 ]] || { echo "fresh-debian-check.sh: run as root (debootstrap, mount, chroot)" >&2; exit 1; }
command -v debootstrap >/dev/null || { apt-get update -qq && apt-get install -y -qq debootstrap >/dev/null; }
if [[ ! -x $root/bin/bash ]]; then
  debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian
fi
# The host's extra CAs (ca-certificates, once installed in the chroot, rebuilds its bundle
# from these).
mkdir -p "$root/usr/local/share/ca-certificates" "$root/etc/ssl/certs"
cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/" 2>/dev/null || true
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
cp /etc/resolv.conf "$root/etc/resolv.conf"

mounted=()
bind() {
  mkdir -p "$root$2"
  mountpoint -q "$root$2" || { mount "${@:3}" "$1" "$root$2"; mounted+=("$root$2"); }
}
cleanup() {
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" || true; done
}
trap cleanup EXIT
bind "$HOME/.rustup" /root/.rustup --bind
bind "$HOME/.cargo" /root/.cargo --bind
bind proc /proc -t proc
bind /dev /dev --rbind
bind /sys /sys --rbind

rm -rf "$root/root/hayanagi"
git clone -q "$repo" "$root/root/hayanagi"
# The first command line after each comment that introduces it.
command_after() { awk -v head="$1" 'index($0, head) == 1 { on = 1; next } on && !/^#/ { print; exit }' README.md; }
main=$(command_after "# Main job")
tests=$(command_after "# Install what the tests need")
[[ -n $main && -n $tests ]] || { echo "fresh-debian-check.sh: README commands not found" >&2; exit 1; }
run() {
  # A host that points pip and OpenSSL at its CA bundle (a re-signing proxy) gets the same
  # inside; nothing else of the host's environment goes in.
  local certs=()
  if [[ -n ${PIP_CERT:-}${SSL_CERT_FILE:-} ]]; then
    certs=(PIP_CERT=/etc/ssl/certs/ca-certificates.crt SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt)
  fi
  chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb "${certs[@]}" \
    PATH=/root/.cargo/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    bash -c "cd /root/hayanagi && $1"
}
echo "fresh-debian-check.sh: Debian $(cat "$root/etc/debian_version"); before: $(run 'for t in cc cmake valgrind mono python3 git; do command -v $t >/dev/null && echo -n "$t "; done; echo') present"
t0=$(date +%s)
run "$main"
t1=$(date +%s)
echo "fresh-debian-check.sh: main command OK in $((t1 - t0)) s: $main"
run "$tests"
t2=$(date +%s)
echo "fresh-debian-check.sh: test command OK in $((t2 - t1)) s: $tests"
