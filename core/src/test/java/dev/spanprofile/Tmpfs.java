package dev.spanprofile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** A small tmpfs of our own: a file system that really fills up, without touching any real disk. */
public final class Tmpfs {

	private Tmpfs() {
	}

	/** Whether a tmpfs of {@code size} (e.g. {@code 4m}) is now mounted on {@code directory}. */
	public static boolean mount(Path directory, String size) {
		return run("mount", "-t", "tmpfs", "-o", "size=" + size + ",mode=0700", "tmpfs", directory.toString());
	}

	public static void unmount(Path directory) {
		if (!run("umount", directory.toString())) {
			// Still busy: detach it now, the kernel frees it once the last file is closed.
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
