#!/bin/sh
# Unpacks the Prometheus project's Python client, whose parsers PrometheusParserTest runs on the server's
# exposition, into DIR (DIR/usr/lib/python3/dist-packages), from Debian's package python3-prometheus-client
# (pure Python, no dependency outside the standard library), pinned by version and sha256. The build runs
# it before the tests (example-server/pom.xml); it needs apt-get and dpkg-deb (Debian, Ubuntu), and does
# nothing once DIR holds the package.
set -eu
dir=$1
package=python3-prometheus-client
version=0.16.0-0.1
sha256=5cce797776781a193b2745df7ca65b51960f7bcf6783d75cd926950418155a4e
deb=${package}_${version}_all.deb

[ -f "$dir/$deb.sha256" ] && exit 0
mkdir -p "$dir/download"
cd "$dir/download"
rm -f "$deb"
if ! apt-get download -qq "$package=$version" 2>download.err; then
    # A machine that never read its package lists (a fresh one): read them once, then try again.
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq
        apt-get download -qq "$package=$version"
    else
        cat download.err >&2
        echo "$0: apt-get download $package=$version failed; run 'apt-get update' as root first" >&2
        exit 1
    fi
fi
echo "$sha256  $deb" | sha256sum -c --quiet -
dpkg-deb -x "$deb" "$dir"
echo "$sha256" >"$dir/$deb.sha256"
