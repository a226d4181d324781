#!/usr/bin/env bash
# The RealWorld specification's own API tests (its Postman collection), run
# with newman against a running Conduit — as the specification's
# api/run-api-tests.sh does, but with no delay between requests.
#
#   scripts/api-tests.sh <collection path or URL> [newman options…]
#
# The collection is not part of this repository: give its path or URL, e.g.
# https://raw.githubusercontent.com/gothinkster/realworld/main/api/Conduit.postman_collection.json
# APIURL (default http://127.0.0.1:3000/api) is the API to test; newman is
# taken from PATH, else run with npx. USERNAME, EMAIL and PASSWORD default to
# a fresh user.
set -euo pipefail
collection=${1:?usage: scripts/api-tests.sh <Conduit.postman_collection.json path or URL> [newman options]}
shift
APIURL=${APIURL:-http://127.0.0.1:3000/api}
USERNAME=${USERNAME:-u$(date +%s)$RANDOM}
EMAIL=${EMAIL:-$USERNAME@mail.com}
PASSWORD=${PASSWORD:-password}
if command -v newman >/dev/null; then newman=(newman); else newman=(npx --yes newman); fi
exec "${newman[@]}" run "$collection" \
  --global-var "APIURL=$APIURL" \
  --global-var "USERNAME=$USERNAME" \
  --global-var "EMAIL=$EMAIL" \
  --global-var "PASSWORD=$PASSWORD" \
  "$@"
