package dev.spanprofile.cgroup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code cpu.stat} file of the process's control group, where the kernel counts how
 * often and how long the group's CPU limit (CFS bandwidth: {@code cpu.max} in cgroup v2,
 * {@code cpu.cfs_quota_us} in v1) throttled it: {@code nr_throttled} periods and
 * {@code throttled_usec} (v2) or {@code throttled_time} in nanoseconds (v1).
 * <p>
 * Found from {@code /proc/self/cgroup}: the unified hierarchy's line {@code 0::/path}
 * (v2), else the line of the v1 controller {@code cpu} ({@code N:cpu,cpuacct:/path}),
 * under {@code /sys/fs/cgroup}. Inside a container the group's path is usually {@code /}
 * (its own cgroup namespace); where the path given does not exist under the mount (a
 * host's path seen from a container without a namespace), the mount's own
 * {@code cpu.stat} is the container's.
 * <p>
 * Everything is read under a root directory, {@code /} in production, so that tests give
 * a directory of their own.
 */
public final class CpuStatFile {

	private final Path file;

	private final boolean microseconds;

	private CpuStatFile(Path file, boolean microseconds) {
		this.file = file;
		this.microseconds = microseconds;
	}

	/**
	 * The process's {@code cpu.stat} under {@code root}, or {@code null} with no control
	 * group CPU figures (not Linux, no cgroup file system, no CPU controller, a group
	 * without a limit's figures).
	 */
	public static CpuStatFile locate(Path root) {
		List<String> groups;
		try {
			groups = Files.readAllLines(root.resolve("proc/self/cgroup"));
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
		Path mounts = root.resolve("sys/fs/cgroup");
		for (String line : groups) {
			String[] parts = line.split(":", 3);
			if (parts.length == 3 && parts[0].equals("0") && parts[1].isEmpty()) {
				CpuStatFile unified = existing(mounts, parts[2], true);
				if (unified != null) {
					return unified;
				}
			}
		}
		for (String line : groups) {
			String[] parts = line.split(":", 3);
			if (parts.length == 3 && List.of(parts[1].split(",")).contains("cpu")) {
				for (String mount : List.of(parts[1], "cpu,cpuacct", "cpu")) {
					CpuStatFile v1 = existing(mounts.resolve(mount), parts[2], false);
					if (v1 != null) {
						return v1;
					}
				}
			}
		}
		return null;
	}

	private static CpuStatFile existing(Path mount, String group, boolean microseconds) {
		String relative = group.startsWith("/") ? group.substring(1) : group;
		for (Path directory : List.of(mount.resolve(relative), mount)) {
			Path file = directory.resolve("cpu.stat");
			if (Files.isReadable(file) && read(file, microseconds) != null) {
				return new CpuStatFile(file, microseconds);
			}
		}
		return null;
	}

	/** Which file this is, for the log. */
	public Path path() {
		return this.file;
	}

	/** The counts so far, or {@code null} when the file cannot be read now. */
	public Counts read() {
		return read(this.file, this.microseconds);
	}

	private static Counts read(Path file, boolean microseconds) {
		try {
			return parse(Files.readString(file), microseconds);
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	/**
	 * The throttling counts of a {@code cpu.stat} text, or {@code null} when it has none
	 * ({@code nr_throttled} missing: a cgroup v2 group whose CPU controller is not
	 * enabled shows only its usage).
	 * @param microseconds whether the time is {@code throttled_usec} (v2) rather than
	 * {@code throttled_time} in nanoseconds (v1)
	 */
	static Counts parse(String text, boolean microseconds) {
		long periods = -1;
		long nanos = -1;
		for (String line : text.split("\n")) {
			String[] field = line.trim().split("\\s+");
			if (field.length != 2) {
				continue;
			}
			try {
				switch (field[0]) {
					case "nr_throttled" -> periods = Long.parseLong(field[1]);
					case "throttled_usec" -> nanos = microseconds ? Long.parseLong(field[1]) * 1_000 : nanos;
					case "throttled_time" -> nanos = microseconds ? nanos : Long.parseLong(field[1]);
					default -> {
					}
				}
			}
			catch (NumberFormatException ex) {
				return null;
			}
		}
		return (periods >= 0 && nanos >= 0) ? new Counts(periods, nanos) : null;
	}

	/**
	 * What the kernel counted so far.
	 *
	 * @param periods enforcement periods in which the group was throttled
	 * @param nanos how long it was throttled, in all
	 */
	public record Counts(long periods, long nanos) {
	}

}
