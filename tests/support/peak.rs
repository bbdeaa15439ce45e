//! Peak memory of one attack, measured in a child process of its own (this test binary run
//! again for one case), so that one attack's memory cannot hide another's.

/// The bound every attack's peak must stay under: the engine memory the crate's "Input safety"
/// section promises.
pub const MEMORY_BOUND: u64 = 64 << 20;

/// A field of `/proc/self/status`, in bytes.
#[cfg(target_os = "linux")]
fn status_bytes(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("procfs");
    let line = status
        .lines()
        .find(|l| l.starts_with(field))
        .unwrap_or_else(|| panic!("{field} in /proc/self/status"));
    let kb: u64 = line[field.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .expect("a number of kB");
    kb * 1024
}

/// What `run` took at its peak beyond the memory the process held when it started.
#[cfg(target_os = "linux")]
pub fn peak_of<T>(run: impl FnOnce() -> T) -> (T, u64) {
    // Resets the high-water mark to the current resident size (Linux 4.0 and later); where it
    // cannot, the mark may be higher than the attack's own peak, never lower.
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let before = status_bytes("VmRSS:");
    let out = run();
    (out, status_bytes("VmHWM:").saturating_sub(before))
}

/// Runs each case in a child process: the test `test` of this binary, with `A2UI_ATTACK` set
/// to the case's name, prints `peak N`; each peak must stay under [`MEMORY_BOUND`]. Called in
/// the child, runs the one case named (`run` returns its peak) and returns `true`.
#[cfg(target_os = "linux")]
pub fn each_in_a_child(test: &str, cases: &[&str], run: impl FnOnce(&str) -> u64) -> bool {
    if let Ok(name) = std::env::var("A2UI_ATTACK") {
        println!("\npeak {}", run(&name));
        return true;
    }
    for name in cases {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", test, "--nocapture", "--test-threads=1"])
            .env("A2UI_ATTACK", name)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{name}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let peak: u64 = stdout
            .lines()
            .find_map(|l| l.strip_prefix("peak "))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("{name}: {stdout}"));
        eprintln!("{name}: peak {} KiB", peak >> 10);
        assert!(peak < MEMORY_BOUND, "{name}: peak {peak} bytes");
    }
    false
}
