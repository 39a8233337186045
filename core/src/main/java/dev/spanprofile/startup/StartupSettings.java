package dev.spanprofile.startup;

/**
 * Bounds of a {@link StartupRecording}.
 *
 * @param maxSteps steps recorded; further steps are left to their parent, whose own time
 * then includes them
 * @param maxGraphs steps whose flame graphs are kept once the start is over: those with
 * the most own time
 * @param maxBytes approximate heap for the graphs while the application starts; beyond it
 * samples are counted, not kept
 */
public record StartupSettings(int maxSteps, int maxGraphs, long maxBytes) {

	public StartupSettings {
		if (maxSteps < 1 || maxGraphs < 0 || maxBytes < 0) {
			throw new IllegalArgumentException("maxSteps must be at least 1, maxGraphs and maxBytes not negative, were "
					+ maxSteps + ", " + maxGraphs + " and " + maxBytes);
		}
	}

	public static StartupSettings defaults() {
		return new StartupSettings(10_000, 100, 16L * 1024 * 1024);
	}

}
