#!/usr/bin/env bash
# The local services the test suite uses, started when they are down (the first lines of
# README: `npm test` must work on a fresh machine of the project's kind). Idempotent: a
# service that answers on its port is left alone. Installs the Debian package only when the
# server is missing and we are root.
set -euo pipefail

port_open () { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
wait_port () { for _ in $(seq 1 150); do port_open "$1" && return 0; sleep 0.2; done; echo "test-services: port $1 did not open" >&2; return 1; }
install () {
  if [ "$(id -u)" != 0 ]; then echo "test-services: $1 is missing; install it (apt-get install $1) or exclude its tests with PONTE_TEST_DIALECTS" >&2; return 1; fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$1"
}

# Several replicas share Idempotency-Keys and rate limits through Redis (test/system/process/replicas.test.ts):
# start the machine's Redis if it is down (it keeps nothing on disk).
if ! port_open 6379; then
  if ! command -v redis-server >/dev/null 2>&1; then
    install redis-server
  fi
  echo "starting redis-server on 127.0.0.1:6379"
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
  wait_port 6379
fi

# The contract suite, the differential test and the fault tests run against the machine's real
# MariaDB (127.0.0.1:3306, root without password) and PostgreSQL (127.0.0.1:5432, trust): start
# either if it is down. Tests create and drop their own `ponte_*` databases.
if ! port_open 5432; then
  if ! command -v pg_ctlcluster >/dev/null 2>&1; then
    install postgresql
  fi
  echo "starting PostgreSQL on 127.0.0.1:5432"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -n 1)" main start
  wait_port 5432
fi
if ! port_open 3306; then
  if [ ! -x /usr/sbin/mariadbd ]; then
    install mariadb-server
  fi
  echo "starting MariaDB on 127.0.0.1:3306"
  mkdir -p /run/mysqld && chown mysql:mysql /run/mysqld 2>/dev/null || true
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd
  wait_port 3306
fi
