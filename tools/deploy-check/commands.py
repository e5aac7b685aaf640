"""Prints, as JSON, the command lines the deploy files run, for DeployCommandTests to run them.

    python commands.py ROOT

Read from the files themselves (never restated), so a test of the printed commands tests what the
image, the compose file, the manifests and the units execute:
  image     ENTRYPOINT, CMD and the HEALTHCHECK's command of deploy/docker/Dockerfile's last stage
  compose   each Reelwork service's command, and the coordinator's and workers' health checks
  k8s       the migrate Job's, coordinator's and worker's args, the worker's preStop command,
            the coordinator's probe paths, the KEDA triggers' Redis list and Prometheus query
  systemd   ExecStartPre / ExecStart split into words, and the worker's REELWORK_WORKER_ID template
"""
import json
import re
import shlex
import sys
from pathlib import Path

import yaml


def dockerfile(path):
    text = re.sub(r"\\\n\s*", " ", path.read_text())
    final = re.split(r"(?m)^FROM ", text)[-1]
    out = {}
    for line in final.splitlines():
        if line.startswith("ENTRYPOINT "):
            out["entrypoint"] = json.loads(line[len("ENTRYPOINT "):])
        elif line.startswith("CMD "):
            out["cmd"] = json.loads(line[len("CMD "):])
        elif line.startswith("HEALTHCHECK "):
            out["healthcheck"] = json.loads(line.split(" CMD ", 1)[1])
    return out


def compose(path):
    services = yaml.safe_load(path.read_text())["services"]
    out = {name: services[name]["command"] for name in ("migrate", "coordinator", "worker")}
    for name in ("coordinator", "worker"):
        test = services[name]["healthcheck"]["test"]
        # Compose writes a literal $ as $$; the container's shell sees one.
        out[f"{name}_health"] = [t.replace("$$", "$") for t in test]
    return out


def k8s(root):
    docs = {}
    for path in sorted((root / "deploy" / "k8s").glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            if doc and doc.get("kind") != "Kustomization":
                docs[(doc["kind"], doc["metadata"]["name"])] = doc

    def container(kind, name):
        return docs[(kind, name)]["spec"]["template"]["spec"]["containers"][0]

    coordinator = container("Deployment", "reelwork-coordinator")
    worker = container("Deployment", "reelwork-worker")
    scaler = docs[("ScaledObject", "reelwork-worker")]["spec"]["triggers"]
    triggers = {t["type"]: t["metadata"] for t in scaler}
    # Two Prometheus triggers (depth and latency): those by name.
    named = {t.get("name"): t["metadata"] for t in scaler}
    return {
        "queue_prefix": docs[("ConfigMap", "reelwork")]["data"]["REELWORK_QUEUE_PREFIX"],
        "redis_list": triggers["redis"]["listName"],
        "prometheus_query": named["claimable-and-running"]["query"],
        "prometheus_latency_query": named["oldest-claimable-wait"]["query"],
        "migrate": container("Job", "reelwork-migrate")["args"],
        "coordinator": coordinator["args"],
        "worker": worker["args"],
        "prestop": worker["lifecycle"]["preStop"]["exec"]["command"],
        "readiness_path": coordinator["readinessProbe"]["httpGet"]["path"],
        "liveness_path": coordinator["livenessProbe"]["httpGet"]["path"],
    }


def unit(path):
    settings = {}
    for line in path.read_text().splitlines():
        if "=" in line and not line.startswith(("#", ";", "[")):
            key, value = line.split("=", 1)
            settings.setdefault(key, []).append(value)
    return settings


def systemd(root):
    c = unit(root / "deploy" / "systemd" / "reelwork-coordinator.service")
    w = unit(root / "deploy" / "systemd" / "reelwork-worker@.service")
    worker_id = [e.split("=", 1)[1] for e in w.get("Environment", []) if e.startswith("REELWORK_WORKER_ID=")]
    return {
        "coordinator_pre": [shlex.split(v) for v in c.get("ExecStartPre", [])],
        "coordinator": shlex.split(c["ExecStart"][-1]),
        "worker": shlex.split(w["ExecStart"][-1]),
        "worker_id": worker_id[-1] if worker_id else None,
    }


def main():
    root = Path(sys.argv[1]).resolve()
    print(json.dumps({
        "image": dockerfile(root / "deploy" / "docker" / "Dockerfile"),
        "compose": compose(root / "deploy" / "compose" / "compose.yaml"),
        "k8s": k8s(root),
        "systemd": systemd(root),
    }, indent=1))


if __name__ == "__main__":
    main()
