#!/usr/bin/env bash
# A private PostgreSQL cluster for Strata's tests and tools (docs/backends/postgres.md, "The test server").
#
#   cluster.sh start DIR        initdb into DIR/data, start it on DIR/socket and a free loopback port,
#                               create the database, write DIR/env (the settings, as shell exports)
#   cluster.sh stop DIR         stop the server (fast, then immediate, then SIGKILL) and remove DIR
#   cluster.sh env DIR          print DIR/env
#   cluster.sh pause DIR MODE   stop the server of DIR (pg_ctl stop -m fast|immediate), keeping its data
#   cluster.sh resume DIR       start it again with the same settings and port
#   cluster.sh replica DIR PRIMARY
#                               a hot standby of PRIMARY's cluster (pg_basebackup -R, streaming) in DIR,
#                               read-only, on its own socket and port; DIR/env as for start
#   cluster.sh run -- CMD ...   start a cluster in a fresh temporary folder, run CMD with its settings in
#                               the environment, then stop it and remove the folder whatever CMD did
#                               (also on Ctrl-C or SIGTERM); exits with CMD's status
#
# PostgreSQL refuses to run as root: as root the server runs as an unprivileged account
# (STRATA_PG_OS_USER, default `postgres`, created as a system account when missing); as any other user
# it runs as that user. The database superuser is `strata`; over the Unix socket it needs no password
# (trust, the socket folder is private), over TCP (127.0.0.1) it needs the random password in DIR/env
# (scram-sha-256). Nothing outside DIR is touched except the account.
#
# The server runs with fsync and full_page_writes off (a committed save survives a server or client
# crash, not a power loss: the `processCrash` level), which keeps `make test` fast. STRATA_PG_FSYNC=on
# turns both on (PostgreSQL's defaults: the `powerLoss` level), for benchmarks that compare backends
# at that level; `strata bench` asks the server and labels its figures either way.
set -euo pipefail

# A program that started this script may know it finished only when every copy of a descriptor it
# handed down is closed (Foundation's Process on Linux): the server pg_ctl leaves running must not
# inherit one, or that program waits as long as the server runs. Close every descriptor above 2
# except bash's own script descriptor (255).
for fd in /proc/$$/fd/*; do
    fd=${fd##*/}
    case $fd in 0|1|2|255) ;; *) eval "exec $fd>&-" 2>/dev/null || true ;; esac
done

OS_USER=${STRATA_PG_OS_USER:-postgres}
DB_USER=strata
DB_NAME=strata

bindir() {
    local dir
    if command -v pg_config >/dev/null && dir=$(pg_config --bindir 2>/dev/null) && [ -x "$dir/initdb" ]; then echo "$dir"; return; fi
    for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        if [ -x "$dir/initdb" ]; then echo "$dir"; return; fi
    done
    echo "cluster.sh: no PostgreSQL server found (initdb); run \`make deps\` (Debian: postgresql, libpq-dev)" >&2
    exit 1
}

# Runs a command as the server's account (itself when not root).
as_server() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u "$OS_USER" -- "$@"; else "$@"; fi
}

ensure_account() {
    [ "$(id -u)" -eq 0 ] || return 0
    id "$OS_USER" >/dev/null 2>&1 && return 0
    useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$OS_USER"
}

# DIR/env: the settings of the server in DIR, as shell exports.
write_env() {
    local dir=$1 bin=$2 port=$3 password=$4
    local socket_url="postgresql://$DB_USER@/$DB_NAME?host=$dir/socket&port=$port"
    local tcp_url="postgresql://$DB_USER:$password@127.0.0.1:$port/$DB_NAME"
    cat > "$dir/env" <<EOF
export PGHOST='$dir/socket'
export PGPORT='$port'
export PGUSER='$DB_USER'
export PGDATABASE='$DB_NAME'
export STRATA_POSTGRES_URL='$socket_url'
export STRATA_POSTGRES_TCP_URL='$tcp_url'
export STRATA_POSTGRES_PASSWORD='$password'
export STRATA_POSTGRES_CLUSTER='$dir'
export STRATA_POSTGRES_BIN='$bin'
EOF
    chmod 600 "$dir/env"
}

# Starts the server of DIR with OPTIONS on a free random loopback port (another one if the server
# could not bind it), keeping the options in DIR/server.options for `resume`; sets SERVED_PORT.
serve() {
    local dir=$1 options=$2 bin attempt port
    bin=$(bindir)
    for attempt in 1 2 3 4 5 6 7 8; do
        port=$(( 20000 + (RANDOM * 32768 + RANDOM) % 40000 ))
        if ss -Hltn "sport = :$port" 2>/dev/null | grep -q .; then continue; fi
        printf '%s\n' "-c port=$port $options" > "$dir/server.options"
        if as_server "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -s -o "$(cat "$dir/server.options")" start; then
            SERVED_PORT=$port
            return 0
        fi
        grep -q "could not bind\|Address already in use" "$dir/server.log" 2>/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    done
    echo "cluster.sh: no free port found" >&2
    exit 1
}

start() {
    local dir=$1 bin port password
    bin=$(bindir)
    if [ -f "$dir/env" ] && [ -f "$dir/data/postmaster.pid" ] && kill -0 "$(head -1 "$dir/data/postmaster.pid")" 2>/dev/null; then
        echo "cluster.sh: already running in $dir" >&2
        return 0
    fi
    ensure_account
    mkdir -p "$dir"
    chmod 700 "$dir"
    [ "$(id -u)" -eq 0 ] && chown "$OS_USER": "$dir"
    password=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
    printf '%s\n' "$password" > "$dir/.pwfile"
    [ "$(id -u)" -eq 0 ] && chown "$OS_USER": "$dir/.pwfile"
    chmod 600 "$dir/.pwfile"
    as_server "$bin/initdb" -D "$dir/data" -U "$DB_USER" --pwfile="$dir/.pwfile" -E UTF8 --locale=C \
        --auth-local=trust --auth-host=scram-sha-256 --no-sync > "$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    rm -f "$dir/.pwfile"
    # Other networks allowed in over TCP with the password (STRATA_PG_HBA, a CIDR such as
    # 10.231.0.0/16), listening on STRATA_PG_LISTEN (default 127.0.0.1): the network-namespace test.
    if [ -n "${STRATA_PG_HBA:-}" ]; then
        printf 'host all all %s scram-sha-256\n' "$STRATA_PG_HBA" | as_server tee -a "$dir/data/pg_hba.conf" > /dev/null
    fi
    as_server mkdir -p "$dir/socket"
    # fsync off unless STRATA_PG_FSYNC=on: the test server's data need not survive a machine crash,
    # only a server crash (the WAL is still written before a commit is acknowledged:
    # synchronous_commit stays on).
    local sync=${STRATA_PG_FSYNC:-off}
    case $sync in on|off) ;; *) echo "cluster.sh: STRATA_PG_FSYNC must be on or off, not '$sync'" >&2; exit 2 ;; esac
    serve "$dir" "-c listen_addresses=${STRATA_PG_LISTEN:-127.0.0.1} -c unix_socket_directories=$dir/socket -c fsync=$sync -c full_page_writes=$sync -c max_connections=400 -c shared_buffers=32MB -c max_wal_senders=4 -c wal_level=replica"
    port=$SERVED_PORT
    write_env "$dir" "$bin" "$port" "$password"
    as_server "$bin/psql" -X -q -h "$dir/socket" -p "$port" -U "$DB_USER" -d postgres -c "CREATE DATABASE $DB_NAME" >/dev/null
}

pause() {
    local dir=$1 mode=$2
    as_server "$(bindir)/pg_ctl" -D "$dir/data" -m "$mode" -w -t 60 -s stop
}

resume() {
    local dir=$1
    as_server "$(bindir)/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -s -o "$(cat "$dir/server.options")" start
}

# A streaming hot standby of the cluster in PRIMARY, made and run as the server's account.
replica() {
    local dir=$1 primary=$2 bin port password
    bin=$(bindir)
    port=$(grep "PGPORT=" "$primary/env" | cut -d"'" -f2)
    password=$(grep "STRATA_POSTGRES_PASSWORD=" "$primary/env" | cut -d"'" -f2)
    mkdir -p "$dir"
    chmod 700 "$dir"
    [ "$(id -u)" -eq 0 ] && chown "$OS_USER": "$dir"
    as_server "$bin/pg_basebackup" -D "$dir/data" -R -X stream -c fast -h "$primary/socket" -p "$port" -U "$DB_USER" > "$dir/basebackup.log" 2>&1 \
        || { cat "$dir/basebackup.log" >&2; exit 1; }
    as_server mkdir -p "$dir/socket"
    serve "$dir" "-c listen_addresses=127.0.0.1 -c unix_socket_directories=$dir/socket -c fsync=off -c hot_standby=on -c max_connections=400 -c shared_buffers=32MB -c max_wal_senders=4"
    port=$SERVED_PORT
    write_env "$dir" "$bin" "$port" "$password"
}

stop() {
    local dir=$1 bin pid
    [ -d "$dir" ] || return 0
    bin=$(bindir)
    if [ -f "$dir/data/postmaster.pid" ]; then
        pid=$(head -1 "$dir/data/postmaster.pid")
        as_server "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 30 -s stop 2>/dev/null \
            || as_server "$bin/pg_ctl" -D "$dir/data" -m immediate -w -t 10 -s stop 2>/dev/null \
            || kill -KILL "$pid" 2>/dev/null || true
        # pg_ctl -w returns once postmaster.pid is gone; make sure the process is too.
        while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
    fi
    rm -rf "$dir"
}

case "${1:-}" in
    start) [ $# -eq 2 ] || { echo "usage: cluster.sh start DIR" >&2; exit 2; }; start "$2" ;;
    stop) [ $# -eq 2 ] || { echo "usage: cluster.sh stop DIR" >&2; exit 2; }; stop "$2" ;;
    pause) [ $# -eq 3 ] || { echo "usage: cluster.sh pause DIR fast|immediate" >&2; exit 2; }; pause "$2" "$3" ;;
    resume) [ $# -eq 2 ] || { echo "usage: cluster.sh resume DIR" >&2; exit 2; }; resume "$2" ;;
    replica) [ $# -eq 3 ] || { echo "usage: cluster.sh replica DIR PRIMARY" >&2; exit 2; }; replica "$2" "$3" ;;
    env) [ $# -eq 2 ] || { echo "usage: cluster.sh env DIR" >&2; exit 2; }; cat "$2/env" ;;
    run)
        shift
        [ "${1:-}" = "--" ] && shift
        [ $# -gt 0 ] || { echo "usage: cluster.sh run -- COMMAND..." >&2; exit 2; }
        dir=$(mktemp -d /tmp/strata-postgres.XXXXXX)
        cleanup() { set +e; stop "$dir"; }
        trap cleanup EXIT
        trap 'exit 130' INT
        trap 'exit 143' TERM
        started=$(date +%s%N)
        start "$dir"
        echo "PostgreSQL test server up in $(( ($(date +%s%N) - started) / 1000000 )) ms: $(grep STRATA_POSTGRES_URL= "$dir/env" | cut -d"'" -f2)" >&2
        # shellcheck disable=SC1091
        . "$dir/env"
        status=0
        "$@" || status=$?
        exit $status
        ;;
    *) echo "usage: cluster.sh start DIR | stop DIR | pause DIR MODE | resume DIR | replica DIR PRIMARY | env DIR | run -- COMMAND..." >&2; exit 2 ;;
esac
