"""Reelwork's own checks of deploy/, beside the generic validators scripts/check-deploy.sh runs.

    python check_deploy.py keda FILE                      # FILE's KEDA objects against keda-v2.schema.json
    python check_deploy.py podmonitor FILE                # FILE's PodMonitors against podmonitor-v1.schema.json
    python check_deploy.py consistency ROOT RESOLVED_COMPOSE
    python check_deploy.py kustomize NAME RENDERED CORE_OUT

`keda`: every keda.sh document in FILE against the schema written from KEDA's documented spec
(no PyPI package ships KEDA's CRD), and the Prometheus trigger's query through promql-parser. `podmonitor`: the
same for the Prometheus Operator's PodMonitor (podmonitor-v1.schema.json, written from its API reference). `consistency`: the rules that tie the deploy files to the
code and to each other (a grace period shorter than the worker's shutdown grace, a Redis key the
queue does not use, a Secret key nobody defines, a REELWORK_* name docs/CONFIGURATION.md does not know,
a deploy file that leaves the worker's /metrics off...).
RESOLVED_COMPOSE is `docker-compose config`'s output (anchors, env files and defaults applied).
Prints one line per problem and exits 1 if there is any.
"""
import json
import re
import sys
from pathlib import Path

import promql_parser
import yaml
from jsonschema import Draft202012Validator

HERE = Path(__file__).resolve().parent
problems = []


def problem(where, text):
    problems.append(f"{where}: {text}")


def load_all(path):
    with open(path) as f:
        return [d for d in yaml.safe_load_all(f) if d]


def check_custom_resources(path, schema_file, group, each=None):
    """Every object of API `group` in `path` against the schema in `schema_file` (and `each(doc,
    name)` for checks a schema cannot make); a problem when there is none. Returns how many."""
    schema = json.loads((HERE / schema_file).read_text())
    validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    count = 0
    for doc in load_all(path):
        if not str(doc.get("apiVersion", "")).startswith(group + "/"):
            continue
        count += 1
        name = f"{path}: {doc.get('kind')}/{doc.get('metadata', {}).get('name')}"
        for err in sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path)):
            where = "/".join(str(p) for p in err.absolute_path) or "(root)"
            problem(name, f"{where}: {err.message}")
        if each:
            each(doc, name)
    if count == 0:
        problem(path, f"no {group} objects found")
    return count


def check_keda(path):
    def queries_are_promql(doc, name):
        # The Prometheus trigger's query must be PromQL (KEDA only finds out when it runs it).
        for i, trigger in enumerate(doc.get("spec", {}).get("triggers", [])):
            query = trigger.get("metadata", {}).get("query") if trigger.get("type") == "prometheus" else None
            if isinstance(query, str):
                try:
                    promql_parser.parse(query)
                except Exception as error:  # the parser raises plain exceptions
                    problem(name, f"spec/triggers/{i}/metadata/query is not PromQL: {error}")
    return check_custom_resources(path, "keda-v2.schema.json", "keda.sh", queries_are_promql)


def check_podmonitor(path):
    return check_custom_resources(path, "podmonitor-v1.schema.json", "monitoring.coreos.com")


def selects(selector, labels):
    """Whether a label selector (matchLabels, matchExpressions) selects a pod with `labels`."""
    if any(labels.get(k) != v for k, v in selector.get("matchLabels", {}).items()):
        return False
    for e in selector.get("matchExpressions", []):
        value, present = labels.get(e["key"]), e["key"] in labels
        ok = {"In": present and value in e.get("values", []), "NotIn": not present or value not in e.get("values", []),
              "Exists": present, "DoesNotExist": not present}[e["operator"]]
        if not ok:
            return False
    return True


def seconds(text):
    """'45s', '2m', '1m30s', '60' -> seconds."""
    text = str(text).strip()
    if re.fullmatch(r"[0-9]+", text):
        return int(text)
    total, matched = 0, ""
    for value, unit in re.findall(r"([0-9]+)(h|min|m|s|ms)", text):
        matched += value + unit
        total += int(value) * {"h": 3600, "min": 60, "m": 60, "s": 1, "ms": 0.001}[unit]
    if matched != text.replace(" ", ""):
        raise ValueError(f"not a duration: {text!r}")
    return total


def documented_settings(root):
    names = set(re.findall(r"`(REELWORK_[A-Z0-9_]+)`", (root / "docs" / "CONFIGURATION.md").read_text()))
    return names


# Names the deploy files use that are not Reelwork settings: compose interpolation variables and
# the k8s preStop's optional operator key.
DEPLOY_ONLY = {"REELWORK_IMAGE", "REELWORK_PORT", "REELWORK_REDIS_MAXMEMORY", "REELWORK_DRAIN_KEY"}


def check_names(root):
    known = documented_settings(root) | DEPLOY_ONLY
    for path in sorted((root / "deploy").rglob("*")):
        if not path.is_file() or path.suffix in {".md", ".json"}:
            continue
        for name in sorted(set(re.findall(r"\bREELWORK_[A-Z0-9_]*[A-Z0-9]\b", path.read_text()))):
            if name not in known:
                problem(path.relative_to(root), f"{name} is not a setting docs/CONFIGURATION.md documents")


def containers(doc):
    spec = doc.get("spec", {})
    if doc["kind"] == "Job" or doc["kind"] == "Deployment":
        pod = spec["template"]["spec"]
        return pod, pod.get("containers", [])
    return None, []


def check_k8s(root):
    k8s = root / "deploy" / "k8s"
    docs = []
    for path in sorted(k8s.glob("*.yaml")):
        for doc in load_all(path):
            if doc.get("kind") != "Kustomization":
                docs.append((path.relative_to(root), doc))
    by_kind = {}
    for path, doc in docs:
        by_kind.setdefault(doc["kind"], {})[doc["metadata"]["name"]] = (path, doc)
    config = by_kind.get("ConfigMap", {}).get("reelwork", (None, {}))[1].get("data", {})
    secret = by_kind.get("Secret", {}).get("reelwork", (None, {}))[1]
    secret_keys = set(secret.get("stringData", {})) | set(secret.get("data", {}))
    if not config:
        problem("deploy/k8s", "no ConfigMap named reelwork")

    for kind in ("Deployment", "Job"):
        for name, (path, doc) in by_kind.get(kind, {}).items():
            pod, ctrs = containers(doc)
            sc = pod.get("securityContext", {})
            if not sc.get("runAsNonRoot") or sc.get("runAsUser", 0) == 0:
                problem(f"{path}: {kind}/{name}", "pods must run as a non-root user (runAsNonRoot, runAsUser)")
            for c in ctrs:
                for ref in c.get("envFrom", []):
                    cm = ref.get("configMapRef", {}).get("name")
                    if cm and cm not in by_kind.get("ConfigMap", {}):
                        problem(f"{path}: {kind}/{name}", f"envFrom names ConfigMap {cm}, which deploy/k8s does not define")
                for env in c.get("env", []):
                    ref = env.get("valueFrom", {}).get("secretKeyRef")
                    if ref and not ref.get("optional") and ref["key"] not in secret_keys:
                        problem(f"{path}: {kind}/{name}", f"{env['name']} reads Secret key {ref['key']}, which secret.yaml does not define")

    worker = by_kind.get("Deployment", {}).get("reelwork-worker")
    if not worker:
        problem("deploy/k8s", "no Deployment named reelwork-worker")
    else:
        path, doc = worker
        pod, ctrs = containers(doc)
        grace = int(config.get("REELWORK_SHUTDOWN_GRACE_SECONDS", 30))
        term = pod.get("terminationGracePeriodSeconds", 30)
        # The preStop call (curl --max-time 5), the watchdog's 2 s, the hand-back's writes.
        if term < grace + 15:
            problem(f"{path}: reelwork-worker", f"terminationGracePeriodSeconds {term} leaves no room after REELWORK_SHUTDOWN_GRACE_SECONDS {grace} (needs at least {grace + 15})")
        c = ctrs[0]
        ids = [e for e in c.get("env", []) if e["name"] == "REELWORK_WORKER_ID"]
        if not ids or ids[0].get("valueFrom", {}).get("fieldRef", {}).get("fieldPath") != "metadata.name":
            problem(f"{path}: reelwork-worker", "REELWORK_WORKER_ID must come from the pod's name (metadata.name)")
        pre = c.get("lifecycle", {}).get("preStop", {}).get("exec", {}).get("command", [])
        if not any("/v1/workers/$REELWORK_WORKER_ID/drain" in part for part in pre):
            problem(f"{path}: reelwork-worker", "the preStop hook must call POST /v1/workers/$REELWORK_WORKER_ID/drain")
        if not c.get("resources", {}).get("requests", {}).get("cpu"):
            problem(f"{path}: reelwork-worker", "the worker needs a CPU request (docs/benchmarks/vision.md sizes it)")

    # A read-only root file system needs a volume at REELWORK_STORAGE_DIR: a worker writes each run's
    # local copy of its video there, a coordinator its upload spool.
    image_env = re.search(r"REELWORK_STORAGE_DIR=(\S+)", (root / "deploy" / "docker" / "Dockerfile").read_text())
    storage_dir = config.get("REELWORK_STORAGE_DIR") or (image_env.group(1) if image_env else "")
    for name in ("reelwork-coordinator", "reelwork-worker"):
        if name not in by_kind.get("Deployment", {}):
            continue
        path, doc = by_kind["Deployment"][name]
        for c in containers(doc)[1]:
            if not c.get("securityContext", {}).get("readOnlyRootFilesystem"):
                continue
            mounts = [m["mountPath"].rstrip("/") for m in c.get("volumeMounts", [])]
            if not any(storage_dir == m or storage_dir.startswith(m + "/") for m in mounts):
                problem(f"{path}: {name}", f"the root file system is read-only and no volume is mounted at REELWORK_STORAGE_DIR ({storage_dir}): "
                                           "local copies of videos and the upload spool cannot be written")

    slots = config.get("REELWORK_WORKER_SLOTS", "2")
    prefix = config.get("REELWORK_QUEUE_PREFIX", "reelwork")
    queue_source = (root / "Sources" / "Queue" / "QueueScripts.swift").read_text()
    metric_sources = "\n".join(p.read_text() for p in (root / "Sources").rglob("*.swift"))
    for name, (path, doc) in by_kind.get("ScaledObject", {}).items():
        target = doc["spec"]["scaleTargetRef"]["name"]
        if target not in by_kind.get("Deployment", {}):
            problem(f"{path}: ScaledObject/{name}", f"scaleTargetRef {target} is not a Deployment in deploy/k8s")
        for t in doc["spec"]["triggers"]:
            auth = t.get("authenticationRef", {}).get("name")
            if auth:
                ta = by_kind.get("TriggerAuthentication", {}).get(auth)
                if not ta:
                    problem(f"{path}: ScaledObject/{name}", f"authenticationRef {auth} is not defined")
                else:
                    for ref in ta[1]["spec"].get("secretTargetRef", []):
                        if ref["key"] not in secret_keys:
                            problem(f"{ta[0]}: TriggerAuthentication/{auth}", f"Secret key {ref['key']} is not in secret.yaml")
            md = t["metadata"]
            if t["type"] == "redis":
                want = f"{prefix}:clubs"
                if md.get("listName") != want:
                    problem(f"{path}: ScaledObject/{name}", f"the Redis trigger watches {md.get('listName')!r}; the queue's global ready ring is {want!r} (REELWORK_QUEUE_PREFIX + ':clubs')")
                if "':clubs'" not in queue_source:
                    problem("Sources/Queue/QueueScripts.swift", "no longer defines the ':clubs' ring the KEDA Redis trigger watches")
            if t["type"] == "prometheus":
                query = md.get("query", "")
                for metric in sorted(set(re.findall(r"reelwork_[a-z_]+", query))):
                    if f'"{metric}"' not in metric_sources:
                        problem("Sources", f"no metric named {metric} any more (the KEDA query uses it)")
                # `or vector(0)` turns a missing scrape (Prometheus or the coordinators down) into
                # an empty queue: the pool would shrink when it should hold (KEDA's fallback).
                if re.search(r"vector\s*\(", query):
                    problem(f"{path}: ScaledObject/{name}", f"trigger {t.get('name')}: the query hides a missing scrape with vector(...)")
                if "reelwork_queue_claimable_jobs" in query:
                    if "reelwork_jobs_running" not in query:
                        problem(f"{path}: ScaledObject/{name}", f"trigger {t.get('name')}: counts claimable jobs but not running ones (busy workers would be scaled away)")
                    if md.get("threshold") != slots:
                        problem(f"{path}: ScaledObject/{name}", f"threshold {md.get('threshold')} differs from REELWORK_WORKER_SLOTS {slots}")
        queries = " ".join(t["metadata"].get("query", "") for t in doc["spec"]["triggers"] if t["type"] == "prometheus")
        for metric in ("reelwork_queue_claimable_jobs", "reelwork_queue_oldest_claimable_wait_seconds"):
            if metric not in queries:
                problem(f"{path}: ScaledObject/{name}", f"no Prometheus trigger scales on {metric}")

    # The PodMonitor scrapes every coordinator and worker pod, on a port their container names,
    # with the metrics token from the Secret.
    pods = {name: doc for name, (path, doc) in by_kind.get("Deployment", {}).items()
            if name in ("reelwork-coordinator", "reelwork-worker")}
    monitors = by_kind.get("PodMonitor", {})
    if not monitors:
        problem("deploy/k8s", "no PodMonitor: the coordinators' and workers' /metrics would not be scraped")
    for name, (path, doc) in monitors.items():
        endpoints = doc["spec"].get("podMetricsEndpoints", [])
        for deployment, ddoc in pods.items():
            labels = ddoc["spec"]["template"]["metadata"].get("labels", {})
            if not selects(doc["spec"].get("selector", {}), labels):
                problem(f"{path}: PodMonitor/{name}", f"its selector does not select {deployment}'s pods")
                continue
            ports = {p.get("name") for c in containers(ddoc)[1] for p in c.get("ports", [])}
            if not any(e.get("port") in ports for e in endpoints):
                problem(f"{path}: PodMonitor/{name}", f"no endpoint names a port of {deployment} (it has {sorted(p for p in ports if p)})")
        for e in endpoints:
            creds = e.get("authorization", {}).get("credentials", {})
            if creds.get("key") != "REELWORK_METRICS_TOKEN" or creds.get("name") != "reelwork":
                problem(f"{path}: PodMonitor/{name}", f"endpoint {e.get('port')}: /metrics needs the metrics token (Secret reelwork, key REELWORK_METRICS_TOKEN)")


def check_compose(root, resolved_path):
    with open(resolved_path) as f:
        compose = yaml.safe_load(f)
    services = compose.get("services", {})
    where = "deploy/compose/compose.yaml"
    for name in ("postgres", "redis", "migrate", "coordinator", "worker"):
        if name not in services:
            problem(where, f"no service {name}")
    if problems:
        return
    redis_cmd = " ".join(map(str, services["redis"].get("command", [])))
    for needed in ("--appendonly yes", "--appendfsync everysec", "--maxmemory-policy noeviction", "--maxmemory "):
        if needed not in redis_cmd:
            problem(where, f"redis must run with {needed.strip()}")
    if str(services["migrate"].get("restart", "no")) != "no":
        problem(where, "migrate must run once (restart: \"no\")")
    for name in ("coordinator", "worker"):
        dep = services[name].get("depends_on", {}).get("migrate", {})
        if dep.get("condition") != "service_completed_successfully":
            problem(where, f"{name} must wait for migrate to complete successfully")
        if "healthcheck" not in services[name]:
            problem(where, f"{name} has no health check")
    worker = services["worker"]
    if "container_name" in worker or worker.get("ports"):
        problem(where, "worker must not set container_name or host ports (--scale worker=N)")
    env = worker.get("environment", {})
    grace = int(env.get("REELWORK_SHUTDOWN_GRACE_SECONDS", 30))
    stop = seconds(worker.get("stop_grace_period", "10s"))
    if stop < grace + 10:
        problem(where, f"worker stop_grace_period {stop}s leaves no room after REELWORK_SHUTDOWN_GRACE_SECONDS {grace} (needs at least {grace + 10}s)")
    raw = (root / where).read_text()
    if re.search(r"(PASSWORD|TOKEN|API_KEY)\s*[:=]\s*\S", raw):
        problem(where, "a password, token or key is written in compose.yaml; it belongs in keys.env")


def unit_settings(path):
    settings = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line[0] in "#;[":
            continue
        key, _, value = line.partition("=")
        settings.setdefault(key, []).append(value)
    return settings


def check_systemd(root):
    units = root / "deploy" / "systemd"
    for name in ("reelwork-coordinator.service", "reelwork-worker@.service"):
        path = units / name
        if not path.exists():
            problem("deploy/systemd", f"{name} is missing")
            continue
        s = unit_settings(path)
        rel = path.relative_to(root)
        for key, value in (("ProtectSystem", "strict"), ("NoNewPrivileges", "yes"),
                           ("Restart", "on-failure"), ("KillSignal", "SIGTERM")):
            if s.get(key, [None])[-1] != value:
                problem(rel, f"{key}={value} is required")
        grace = 30
        for env in s.get("Environment", []):
            if env.startswith("REELWORK_SHUTDOWN_GRACE_SECONDS="):
                grace = int(env.split("=", 1)[1])
        stop = seconds(s.get("TimeoutStopSec", ["90"])[-1])
        if "worker" in name and stop < grace + 10:
            problem(rel, f"TimeoutStopSec {stop}s leaves no room after REELWORK_SHUTDOWN_GRACE_SECONDS {grace}")
        if "worker" in name and not any(e.startswith("REELWORK_WORKER_ID=") and "%i" in e for e in s.get("Environment", [])):
            problem(rel, "each instance needs a stable REELWORK_WORKER_ID built from %i")


METRICS_BIND = "REELWORK_WORKER_METRICS_BIND"


def bind_port(value):
    """The port of a host:port setting, or None when it names none (as the worker's HostPort.parse)."""
    _, sep, port = str(value or "").rpartition(":")
    return int(port) if sep and port.isdigit() and int(port) <= 65535 else None


def k8s_worker_metrics(docs, where):
    """The worker Deployment among `docs` (a list of manifests) sets REELWORK_WORKER_METRICS_BIND, from
    its env or the ConfigMaps it reads, and names that port `metrics` (the PodMonitor's endpoint)."""
    worker = next((d for d in docs if d.get("kind") == "Deployment" and d["metadata"]["name"] == "reelwork-worker"), None)
    if not worker:
        return
    maps = {d["metadata"]["name"]: d.get("data", {}) for d in docs if d.get("kind") == "ConfigMap"}
    for c in containers(worker)[1]:
        bind = None
        for ref in c.get("envFrom", []):
            bind = maps.get(ref.get("configMapRef", {}).get("name"), {}).get(METRICS_BIND, bind)
        bind = next((e.get("value") for e in c.get("env", []) if e["name"] == METRICS_BIND), bind)
        port = bind_port(bind)
        if port is None:
            problem(f"{where}: reelwork-worker", f"{METRICS_BIND} is {'not set' if bind is None else repr(bind)}: the workers' /metrics "
                                                 "would be off (reelwork_jobs_finished_total is counted there)")
            continue
        named = [p.get("containerPort") for p in c.get("ports", []) if p.get("name") == "metrics"]
        if named != [port]:
            problem(f"{where}: reelwork-worker", f"{METRICS_BIND} listens on {port}, but the container's port named metrics is {named or 'missing'}")


def check_worker_metrics(root, resolved_path):
    """Every deploy file turns the worker's /metrics on: the binary leaves it off (workers share
    machines), so a deploy file that forgets it leaves reelwork_jobs_finished_total unscraped."""
    k8s_docs = [d for path in sorted((root / "deploy" / "k8s").glob("*.yaml")) for d in load_all(path)]
    k8s_worker_metrics(k8s_docs, "deploy/k8s")

    with open(resolved_path) as f:
        worker = yaml.safe_load(f).get("services", {}).get("worker", {})
    bind = (worker.get("environment") or {}).get(METRICS_BIND)
    port = bind_port(bind)
    if port is None:
        problem("deploy/compose/compose.yaml", f"worker: {METRICS_BIND} is {'not set' if bind is None else repr(bind)}: its /metrics would be off")
    elif str(port) not in [str(e).split("/")[0] for e in worker.get("expose", [])]:
        problem("deploy/compose/compose.yaml", f"worker: {METRICS_BIND} listens on {port}, which the service does not expose")

    # A templated unit: each instance needs a port of its own, so the value must make one from %i.
    # The README promises instances 0 to 9; each must give a distinct port a user without
    # capabilities may bind.
    unit = root / "deploy" / "systemd" / "reelwork-worker@.service"
    if not unit.exists():
        return
    values = [e.split("=", 1)[1] for e in unit_settings(unit).get("Environment", []) if e.startswith(METRICS_BIND + "=")]
    rel = unit.relative_to(root)
    if not values or not values[-1]:
        problem(rel, f"{METRICS_BIND} is not set: the workers' /metrics would be off unless every instance had a drop-in")
        return
    ports = {instance: bind_port(values[-1].replace("%i", str(instance))) for instance in range(10)}
    bad = [f"@{i} -> {values[-1].replace('%i', str(i))}" for i, p in ports.items() if p is None or p < 1024]
    if bad:
        problem(rel, f"{METRICS_BIND}={values[-1]} gives no unprivileged port for instances 0 to 9 ({', '.join(bad)})")
    elif len(set(ports.values())) < len(ports):
        problem(rel, f"{METRICS_BIND}={values[-1]} gives instances 0 to 9 the same port (build it from %i)")


def check_dockerfile(root):
    path = root / "deploy" / "docker" / "Dockerfile"
    text = path.read_text()
    stages = re.split(r"(?m)^FROM ", text)
    final = stages[-1]
    user = re.findall(r"(?m)^USER\s+(\S+)", final)
    if not user or user[-1].split(":")[0] in {"0", "root"}:
        problem("deploy/docker/Dockerfile", "the runtime stage must end as a non-root USER")
    if not re.search(r'(?m)^ENTRYPOINT \["/usr/local/bin/reelwork"\]', final):
        problem("deploy/docker/Dockerfile", "the runtime stage's ENTRYPOINT must be the reelwork binary")
    if "scripts/setup-models.sh" not in text:
        problem("deploy/docker/Dockerfile", "the models must come from scripts/setup-models.sh")


def check_kustomize(name, rendered_path, core_path):
    """A rendered kustomization: writes the resources Kubernetes itself knows to `core_path` (for
    kubernetes-validate); the S3 overlay must make no ReadWriteMany claim nor mount one, must set
    the store, and every Secret key a pod reads must be in the rendered Secret."""
    docs = load_all(rendered_path)
    core = [d for d in docs if not d["apiVersion"].startswith(("keda.sh/", "monitoring.coreos.com/"))]
    Path(core_path).write_text(yaml.safe_dump_all(core, sort_keys=False))
    secret = next((d for d in docs if d["kind"] == "Secret" and d["metadata"]["name"] == "reelwork"), {})
    keys = set(secret.get("stringData", {})) | set(secret.get("data", {}))
    for doc in docs:
        pod, ctrs = containers(doc)
        for c in ctrs:
            for env in c.get("env", []):
                ref = env.get("valueFrom", {}).get("secretKeyRef")
                if ref and not ref.get("optional") and ref["key"] not in keys:
                    problem(f"{name}: {doc['kind']}/{doc['metadata']['name']}", f"{env['name']} reads Secret key {ref['key']}, which the rendered Secret does not define")
    k8s_worker_metrics(docs, name)
    if name.endswith("-s3"):
        config = next((d for d in docs if d["kind"] == "ConfigMap" and d["metadata"]["name"] == "reelwork"), {}).get("data", {})
        if config.get("REELWORK_STORAGE") != "s3" or not config.get("REELWORK_S3_BUCKET") or not config.get("REELWORK_S3_ENDPOINT"):
            problem(name, "the ConfigMap must set REELWORK_STORAGE: s3, REELWORK_S3_ENDPOINT and REELWORK_S3_BUCKET")
        for doc in docs:
            if doc["kind"] == "PersistentVolumeClaim":
                problem(name, f"PersistentVolumeClaim/{doc['metadata']['name']} is made: with a bucket no shared volume is needed")
            pod, _ = containers(doc)
            for volume in (pod or {}).get("volumes", []):
                if "persistentVolumeClaim" in volume:
                    problem(f"{name}: {doc['kind']}/{doc['metadata']['name']}", f"volume {volume['name']} mounts a claim: with a bucket no shared volume is needed")
        for deployment in ("reelwork-coordinator", "reelwork-worker"):
            doc = next((d for d in docs if d["kind"] == "Deployment" and d["metadata"]["name"] == deployment), None)
            names = {e["name"] for c in (containers(doc)[1] if doc else []) for e in c.get("env", [])}
            if not {"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"} <= names:
                problem(f"{name}: {deployment}", "needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (the bucket's keys)")
    return len(docs)


def main(argv):
    if len(argv) == 3 and argv[1] == "keda":
        n = check_keda(argv[2])
        label = f"{n} KEDA object(s) against tools/deploy-check/keda-v2.schema.json"
    elif len(argv) == 3 and argv[1] == "podmonitor":
        n = check_podmonitor(argv[2])
        label = f"{n} PodMonitor(s) against tools/deploy-check/podmonitor-v1.schema.json"
    elif len(argv) == 5 and argv[1] == "kustomize":
        n = check_kustomize(argv[2], argv[3], argv[4])
        label = f"{argv[2]} rendered by kubectl kustomize: {n} resource(s)"
    elif len(argv) == 4 and argv[1] == "consistency":
        root = Path(argv[2]).resolve()
        check_names(root)
        check_k8s(root)
        check_compose(root, argv[3])
        check_systemd(root)
        check_worker_metrics(root, argv[3])
        check_dockerfile(root)
        label = "consistency of deploy/ with the code, docs/CONFIGURATION.md and itself"
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for p in problems:
        print(f"  {p}")
    print(f"{label}: {'FAILED, ' + str(len(problems)) + ' problem(s)' if problems else 'ok'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
