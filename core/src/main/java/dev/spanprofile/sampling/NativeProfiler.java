package dev.spanprofile.sampling;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;

import one.profiler.AsyncProfiler;

/**
 * async-profiler's native library in this JVM, for both engines that use one: the
 * async-profiler engine loads the upstream copy, the Pyroscope engine the copy bundled in
 * the agent. Two copies in one process install their signal handlers over each other and
 * both lose samples without a word, so a copy is only loaded when no other one runs, and
 * this class holds the JVM-wide answer to "is the copy that is mapped one of ours?": the
 * upstream API's own instance, or the agent's copy once the Pyroscope engine loaded it
 * (it stays mapped after a stop).
 */
public final class NativeProfiler {

	/**
	 * async-profiler's own setting for where {@code getInstance()} extracts its bundled
	 * library.
	 */
	static final String EXTRACT_PATH_PROPERTY = "one.profiler.extractPath";

	/**
	 * A path that is never a library, to ask the API for an existing instance without
	 * loading one.
	 */
	private static final String PROBE_PATH = "/nonexistent/spanprofile-probe/libasyncProfiler.so";

	/** Whether the Pyroscope engine loaded the agent's copy in this JVM. */
	private static volatile boolean pyroscopeCopyLoaded;

	private NativeProfiler() {
	}

	/**
	 * The upstream copy, loaded as {@code settings} say, once it is certain that no other
	 * copy runs and that no other component of this JVM is profiling with ours.
	 */
	static AsyncProfiler acquire(SamplerSettings settings) throws SamplerUnavailableException {
		if (!ourInstanceExists()) {
			// A copy mapped before our own instance exists is someone else's: the
			// Pyroscope agent's, an -agentpath agent, another class loader's.
			Set<String> mapped = OtherProfilers.mappedLibraries();
			if (!mapped.isEmpty()) {
				throw anotherCopy(mapped, "use spanprofile.engine=jfr");
			}
			if (!OtherProfilers.agentsOnCommandLine().isEmpty()) {
				throw new SamplerUnavailableException("a profiling agent is configured on the command line ("
						+ String.join(", ", OtherProfilers.agentsOnCommandLine())
						+ "); two async-profiler copies steal "
						+ "each other's samples. Remove it, or use spanprofile.engine=jfr");
			}
		}
		AsyncProfiler profiler = load(settings);
		// Loading must not have added a second copy beside one we could not see before
		// (an -agentpath library).
		Set<String> mappedNow = OtherProfilers.mappedLibraries();
		if (mappedNow.size() > 1) {
			throw anotherCopy(mappedNow, "use spanprofile.engine=jfr");
		}
		String status = status(profiler);
		if (status != null && !status.toLowerCase(Locale.ROOT).contains("not active")) {
			throw new SamplerUnavailableException("async-profiler is already profiling on behalf of another component ("
					+ status.trim()
					+ "); spanprofile will not take it over. Stop the other session, or use spanprofile.engine=jfr");
		}
		return profiler;
	}

	/**
	 * Before the Pyroscope engine loads the agent's copy: refuse when any other copy is
	 * mapped, the agent's own from an earlier start in this JVM excepted.
	 */
	public static void refuseIfAnotherCopyRunsBesidePyroscope() throws SamplerUnavailableException {
		for (String library : OtherProfilers.mappedLibraries()) {
			if (pyroscopeCopyLoaded && library.contains("-pyroscope")) {
				continue;
			}
			throw anotherCopy(Set.of(library), "set spanprofile.pyroscope.enabled=false");
		}
	}

	/**
	 * Load the Pyroscope agent's copy with {@code loader} (the agent's own loading code),
	 * and remember that the copy mapped from now on is ours.
	 */
	public static <T> T loadPyroscopeCopy(Callable<T> loader) throws SamplerUnavailableException {
		try {
			T profiler = loader.call();
			pyroscopeCopyLoaded = true;
			return profiler;
		}
		catch (Exception | LinkageError ex) {
			throw new SamplerUnavailableException("the Pyroscope agent's native profiler cannot be loaded on "
					+ System.getProperty("os.name") + "/" + System.getProperty("os.arch") + ": " + ex, ex);
		}
	}

	private static SamplerUnavailableException anotherCopy(Set<String> mapped, String remedy) {
		return new SamplerUnavailableException("another async-profiler is already loaded in this JVM ("
				+ String.join(", ", mapped) + "); two copies steal each other's samples. Remove it, or " + remedy);
	}

	/**
	 * Whether this class loader's async-profiler API already loaded its library (then it
	 * is shared, not foreign). {@code getInstance(path)} hands out the existing instance
	 * without looking at the path, and loads nothing when there is none and the path does
	 * not exist: a probe that uses the library's public API only.
	 */
	private static boolean ourInstanceExists() {
		try {
			AsyncProfiler.getInstance(PROBE_PATH);
			return true;
		}
		catch (UnsatisfiedLinkError | RuntimeException ex) {
			return false;
		}
	}

	private static String status(AsyncProfiler profiler) {
		try {
			return profiler.execute("status");
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	/**
	 * Load the upstream library: from an explicit path, extracted into a chosen directory
	 * (a noexec temp directory is common in hardened containers), or the library's own
	 * default extraction. Extraction is async-profiler's own: its
	 * {@code one.profiler.extractPath} property names the directory, set only for the
	 * duration of the load.
	 */
	static AsyncProfiler load(SamplerSettings settings) throws SamplerUnavailableException {
		try {
			if (settings.nativeLibraryPath() != null) {
				return AsyncProfiler.getInstance(settings.nativeLibraryPath().toAbsolutePath().toString());
			}
			if (settings.nativeLibraryDirectory() != null) {
				return extractInto(settings.nativeLibraryDirectory());
			}
			return AsyncProfiler.getInstance();
		}
		catch (SamplerUnavailableException ex) {
			throw ex;
		}
		catch (Throwable ex) {
			// UnsatisfiedLinkError (musl, Windows, noexec), SecurityException, ...: never
			// take the application down.
			throw new SamplerUnavailableException("async-profiler's native library cannot be loaded on "
					+ System.getProperty("os.name") + "/" + System.getProperty("os.arch") + ": " + ex, ex);
		}
	}

	private static AsyncProfiler extractInto(Path directory) throws SamplerUnavailableException {
		try {
			// The library creates its temp file in the directory but does not create the
			// directory.
			Files.createDirectories(directory);
		}
		catch (IOException ex) {
			throw cannotExtract(directory, ex);
		}
		// getInstance is synchronized on the class: holding the same lock keeps other
		// loads from seeing our property.
		synchronized (AsyncProfiler.class) {
			String previous = System.getProperty(EXTRACT_PATH_PROPERTY);
			System.setProperty(EXTRACT_PATH_PROPERTY, directory.toAbsolutePath().toString());
			try {
				return AsyncProfiler.getInstance();
			}
			catch (IllegalStateException ex) {
				// What the library throws when it cannot write its copy.
				throw cannotExtract(directory, (ex.getCause() != null) ? ex.getCause() : ex);
			}
			finally {
				if (previous != null) {
					System.setProperty(EXTRACT_PATH_PROPERTY, previous);
				}
				else {
					System.clearProperty(EXTRACT_PATH_PROPERTY);
				}
			}
		}
	}

	private static SamplerUnavailableException cannotExtract(Path directory, Throwable cause) {
		return new SamplerUnavailableException(
				"Cannot extract async-profiler's native library into " + directory + ": " + cause, cause);
	}

}
