"""Writes four-studios-ring.json with MLX's own mlx.distributed_config code (configure_jaccl_ring).

Four Mac Studios in a ring, two Thunderbolt 5 cables between ring neighbours (X:en2-Y:en4 and
X:en3-Y:en5 for Y the next of X), as in examples/snapshots/four-studios-ring.json. ssh is replaced by
canned answers (the en0 address of each host); nothing else of MLX is changed.

    python3 four-studios-ring.py MLX_CHECKOUT [TAG] > /dev/null   # TAG defaults to v0.32.1
"""
import builtins
import os
import subprocess
import sys
import tempfile
import types

mlx_repo, tag = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "v0.32.1")
root = tempfile.mkdtemp()
package = os.path.join(root, "mlx", "_distributed_utils")
os.makedirs(package)
for name in ["common", "config"]:
    source = subprocess.run(["git", "-C", mlx_repo, "show", f"{tag}:python/mlx/_distributed_utils/{name}.py"],
                            check=True, capture_output=True, text=True).stdout
    with open(os.path.join(package, name + ".py"), "w") as f:
        f.write(source)
for init in [os.path.join(root, "mlx", "__init__.py"), os.path.join(package, "__init__.py")]:
    with open(init, "w") as f:
        f.write("")
with open(os.path.join(root, "mlx", "core.py"), "w") as f:  # config.py imports mlx.core and uses nothing of it here
    f.write("")
sys.path.insert(0, root)
from mlx._distributed_utils import common, config  # noqa: E402

names = ["studio-a", "studio-b", "studio-c", "studio-d"]
address = {n + ".local": "192.168.1.%d" % (21 + i) for i, n in enumerate(names)}
far = {}
for i, n in enumerate(names):
    m = names[(i + 1) % len(names)]
    for here, there in [("en2", "en4"), ("en3", "en5")]:
        far[(n, here)], far[(m, there)] = (m, there), (n, here)
ports = ["en2", "en3", "en4", "en5"]
tb_hosts = [config.ThunderboltHost(n, [config.ThunderboltPort(p, f"{n}/{p}", "%s/%s" % far[(n, p)]) for p in ports]) for n in names]
reverse = {p.uuid: (i, j) for i, h in enumerate(tb_hosts) for j, p in enumerate(h.ports)}


def canned_ssh(cmd, **kwargs):
    assert cmd[0] == "ssh" and cmd[2:] == ["ipconfig", "getifaddr", "en0"], cmd
    return types.SimpleNamespace(stdout=address[cmd[1]] + "\n")


config.run = canned_ssh
builtins.input = lambda *args: ""  # the setup it prints waits for Enter
hosts = common.Hostfile.from_list(",".join(n + ".local" for n in names)).hosts
ips = config.IPConfigurator(hosts, tb_hosts, reverse)
rings = config.extract_rings(config.make_connectivity_matrix(tb_hosts, reverse))
config.check_valid_ring(hosts, rings)
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "four-studios-ring.json")
args = types.SimpleNamespace(verbose=False, env=[], auto_setup=False, output_hostfile=out)
config.configure_jaccl_ring(args, hosts, ips, rings[0], [config.SSHInfo(True, False) for _ in hosts])
