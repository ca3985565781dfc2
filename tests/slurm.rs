//! The README's Slurm job array, run on a real one-node cluster: Debian's `slurm-wlm` and `munge`
//! (scripts/setup installs them), started by this test as root under a scratch folder — nothing is
//! written to /etc — and stopped when it ends. The array script is read from the README ("Past one
//! machine") and submitted with `sbatch --wait` with only its sizes scaled down; its shards' reports,
//! merged by `arbiter simulate merge`, must be exactly the statistics of one run of all the games.
//! Outside CI the test says why it skips where the daemons are missing or it is not root; in CI
//! (`CI` set) that fails it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use serde_json::Value;

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}

/// Where `tool` is on PATH or in the system folders Debian puts daemons in.
fn find(tool: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/sbin", "/usr/bin"].map(PathBuf::from))
        .map(|d| d.join(tool))
        .find(|p| p.is_file())
}

/// Why the cluster cannot be started here, if it cannot.
fn missing() -> Option<String> {
    let absent: Vec<&str> = ["munged", "mungekey", "slurmctld", "slurmd", "sbatch", "sinfo"]
        .into_iter()
        .filter(|t| find(t).is_none())
        .collect();
    if !absent.is_empty() {
        return Some(format!(
            "{} not installed (Debian's slurm-wlm and munge: scripts/setup installs them)",
            absent.join(", ")
        ));
    }
    let uid = Command::new("id")
        .arg("-u")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    if uid.as_deref() != Some("0") {
        return Some("the daemons run as root here, and this test is not root".to_string());
    }
    None
}

fn run(cmd: &mut Command, what: &str) -> Output {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: cannot start it: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The daemons this test started, stopped when it ends however it ends, with their logs shown
/// when it fails.
struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
}

impl Cluster {
    fn start(dir: &Path) -> Cluster {
        for d in ["spool", "state", "log", "munge/run", "munge/lib", "munge/log", "results"] {
            std::fs::create_dir_all(dir.join(d)).expect("a scratch folder");
        }
        let cluster = Cluster {
            dir: dir.to_path_buf(),
            conf: dir.join("slurm.conf"),
        };
        let key = dir.join("munge/munge.key");
        run(
            Command::new(find("mungekey").expect("mungekey"))
                .arg("--create")
                .arg(format!("--keyfile={}", key.display()))
                .arg("--force"),
            "mungekey",
        );
        run(Command::new("chmod").arg("600").arg(&key), "chmod");
        let socket = dir.join("munge/run/munge.socket");
        run(
            Command::new(find("munged").expect("munged"))
                .arg(format!("--key-file={}", key.display()))
                .arg(format!("--socket={}", socket.display()))
                .arg(format!("--pid-file={}", dir.join("munge/run/munged.pid").display()))
                .arg(format!("--log-file={}", dir.join("munge/log/munged.log").display()))
                .arg(format!("--seed-file={}", dir.join("munge/lib/munge.seed").display()))
                .arg("--force"),
            "munged",
        );
        let host = String::from_utf8_lossy(&run(Command::new("hostname").arg("-s"), "hostname").stdout)
            .trim()
            .to_string();
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let d = dir.display();
        let conf = format!(
            "ClusterName=arbiter\nSlurmctldHost={host}\nAuthType=auth/munge\nAuthInfo=socket={}\nCredType=cred/munge\n\
             SlurmUser=root\nSlurmdUser=root\nStateSaveLocation={d}/state\nSlurmdSpoolDir={d}/spool\n\
             SlurmctldPidFile={d}/slurmctld.pid\nSlurmdPidFile={d}/slurmd.pid\nSlurmctldLogFile={d}/log/slurmctld.log\n\
             SlurmdLogFile={d}/log/slurmd.log\nProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n\
             SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\nReturnToService=2\nMpiDefault=none\n\
             JobAcctGatherType=jobacct_gather/none\nNodeName={host} CPUs={cpus} State=UNKNOWN\n\
             PartitionName=main Nodes={host} Default=YES MaxTime=INFINITE State=UP\n",
            socket.display()
        );
        std::fs::write(&cluster.conf, conf).expect("slurm.conf");
        run(cluster.slurm("slurmctld").arg("-f").arg(&cluster.conf), "slurmctld");
        run(cluster.slurm("slurmd").arg("-f").arg(&cluster.conf), "slurmd");
        // The node is up once sinfo calls it idle.
        let began = Instant::now();
        loop {
            let out = cluster.slurm("sinfo").args(["-h", "-o", "%t"]).output().expect("sinfo");
            if String::from_utf8_lossy(&out.stdout).trim() == "idle" {
                break;
            }
            assert!(
                began.elapsed() < Duration::from_secs(60),
                "the node is not idle after a minute: {}{}\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr),
                cluster.logs()
            );
            std::thread::sleep(Duration::from_millis(250));
        }
        cluster
    }

    /// A Slurm command that reads this cluster's configuration.
    fn slurm(&self, tool: &str) -> Command {
        let mut c = Command::new(find(tool).unwrap_or_else(|| PathBuf::from(tool)));
        c.env("SLURM_CONF", &self.conf);
        c
    }

    fn logs(&self) -> String {
        ["log/slurmctld.log", "log/slurmd.log", "munge/log/munged.log"]
            .iter()
            .map(|f| {
                let text = std::fs::read_to_string(self.dir.join(f)).unwrap_or_default();
                let tail: Vec<&str> = text.lines().rev().take(15).collect();
                format!("--- {f}:\n{}", tail.into_iter().rev().collect::<Vec<_>>().join("\n"))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for pid in ["slurmd.pid", "slurmctld.pid", "munge/run/munged.pid"] {
            if let Ok(p) = std::fs::read_to_string(self.dir.join(pid)) {
                let _ = Command::new("kill").arg(p.trim()).status();
            }
        }
    }
}

/// The README's job-array script (the `sh` block after "as a Slurm job array").
fn readme_array_script() -> String {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md")).expect("README.md");
    let after = readme
        .split_once("as a Slurm job array")
        .expect("the README shows a Slurm job array")
        .1;
    let block = after.split_once("```sh\n").expect("a sh block").1;
    block.split_once("```").expect("the block ends").0.to_string()
}

/// `text` with `from` replaced by `to`, which must stand in it exactly once.
fn scaled(text: &str, from: &str, to: &str) -> String {
    assert_eq!(text.matches(from).count(), 1, "the README's script has `{from}` once:\n{text}");
    text.replacen(from, to, 1)
}

/// A report without what differs between runs of the same games: timing and the shard marks.
fn statistics(text: &str) -> Value {
    let mut v: Value = serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("not one JSON report ({e}):\n{text}"));
    let o = v.as_object_mut().expect("a report is an object");
    o.remove("timing");
    o.remove("shard");
    v
}

#[test]
fn the_readme_s_slurm_array_merges_into_one_run() {
    if let Some(why) = missing() {
        assert!(!in_ci(), "CI runs the Slurm test, but {why}");
        eprintln!("skipped: {why}");
        return;
    }
    let dir = std::env::temp_dir().join(format!("arbiter-slurm-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cluster = Cluster::start(&dir);
    // The README's script at a test's size: 200 games, one CPU a shard, the shards' output files
    // where the test can read them.
    let mut script = readme_array_script();
    script = scaled(&script, "--games 100000", "--games 200");
    script = scaled(&script, "--cpus-per-task=4", "--cpus-per-task=1");
    script = scaled(&script, "--threads 4", "--threads 1");
    let shards = script
        .lines()
        .find_map(|l| l.strip_prefix("#SBATCH --array=0-"))
        .and_then(|n| n.trim().parse::<usize>().ok())
        .expect("the script's array is 0-N")
        + 1;
    let job = dir.join("job.sh");
    std::fs::write(&job, &script).expect("the job script");
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_arbiter"));
    let path = std::env::join_paths(
        std::iter::once(bin.parent().expect("the binary's folder").to_path_buf())
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .expect("a PATH");
    let rulesets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets");
    let out = cluster
        .slurm("sbatch")
        .arg("--wait")
        .arg(format!("--output={}/log/job-%a.out", dir.display()))
        .arg(&job)
        .current_dir(&dir)
        .env("PATH", path)
        .env("ARBITER_RULESETS", &rulesets)
        .output()
        .expect("sbatch");
    let job_logs = || -> String {
        (0..shards)
            .map(|k| {
                format!(
                    "--- job {k}: {}",
                    std::fs::read_to_string(dir.join(format!("log/job-{k}.out"))).unwrap_or_default()
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(
        out.status.success(),
        "sbatch --wait: {}{}\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
        job_logs(),
        cluster.logs()
    );
    let files: Vec<PathBuf> = (0..shards).map(|k| dir.join(format!("results/shard-{k}.json"))).collect();
    for f in &files {
        assert!(f.is_file(), "{} was not written:\n{}", f.display(), job_logs());
    }
    let merged = run(
        Command::new(&bin).args(["simulate", "merge", "--json"]).args(&files),
        "simulate merge",
    );
    let whole = run(
        Command::new(&bin).args(["simulate", "chess", "--games", "200", "--seed", "42", "--json"]),
        "one run of every game",
    );
    let merged = statistics(&String::from_utf8_lossy(&merged.stdout));
    assert_eq!(merged["games"], 200);
    assert_eq!(
        merged,
        statistics(&String::from_utf8_lossy(&whole.stdout)),
        "the shards merge into one run"
    );
    drop(cluster);
    let _ = std::fs::remove_dir_all(&dir);
}
