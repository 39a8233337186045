package dev.spanprofile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/**
 * A small tmpfs of our own: a file system that really fills up, without touching any real
 * disk.
 */
public final class Tmpfs {

	private Tmpfs() {
	}

	/**
	 * Whether a tmpfs of {@code size} (e.g. {@code 4m}) is now mounted on
	 * {@code directory}.
	 */
	public static boolean mount(Path directory, String size) {
		return run("mount", "-t", "tmpfs", "-o", "size=" + size + ",mode=0700", "tmpfs", directory.toString());
	}

	/**
	 * Skip the calling test when {@code mounted} is false (mounting needs root), saying
	 * so on the console, where a skip is easy to miss otherwise; on CI ({@code CI=true})
	 * fail instead: CI must run every test.
	 */
	public static void assumeMounted(boolean mounted, String test) {
		if (mounted) {
			return;
		}
		String reason = test + " needs a tmpfs of its own, and mounting one needs root: a full disk cannot be "
				+ "simulated here";
		if ("true".equals(System.getenv("CI"))) {
			throw new AssertionError("CI=true: " + reason);
		}
		System.err.println("WARNING: SKIPPED " + reason);
		Assumptions.abort(reason);
	}

	public static void unmount(Path directory) {
		if (!run("umount", directory.toString())) {
			// Still busy: detach it now, the kernel frees it once the last file is
			// closed.
			run("umount", "-l", directory.toString());
		}
	}

	private static boolean run(String... command) {
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start();
			return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0;
		}
		catch (IOException ex) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

}
