package dev.spanprofile.view;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * The start in JSON: the whole start's breakdown, the steps with the most own time, and
 * the timeline of steps in the order they began.
 *
 * @param finished whether the application is ready (or failed to start)
 * @param startedAt when the start began, ISO-8601
 * @param breakdown the whole start's time
 * @param slowest the steps with the most own time, most first
 * @param timeline every recorded step, by thread, each thread's in the order they began
 * @param steps steps recorded
 * @param notRecorded steps beyond {@code spanprofile.startup.max-steps}, left to their
 * parents
 * @param firstRequests the cold first requests after the start
 */
public record StartupJson(@JsonUnwrapped EngineJson engine, boolean finished, String startedAt, Breakdown breakdown,
		List<Step> slowest, List<Step> timeline, int steps, long notRecorded,
		List<FirstRequestsJson.Request> firstRequests) {

	/**
	 * One step.
	 *
	 * @param parentId the step it ran in; {@code null} for the whole start
	 * @param detail what it worked on (a bean's name), from its tags
	 * @param startMillis when it began, from the start's beginning
	 * @param ownMillis its duration less its children's on its thread
	 * @param cpuMillis its own CPU samples times the interval
	 * @param classLoadingMillis the part of {@code cpuMillis} spent loading classes
	 * @param waitMillis its own recorded waits; {@code null} when waits are not sampled
	 * @param coreWaitMillis its own time runnable but not running, waiting for a core, as
	 * the kernel counted it on its thread (less what its recorded waits hold, which are
	 * timed until their thread runs again); measured, not sampled: no frame of its graph
	 * stands for it. {@code null} where not measured (not Linux,
	 * {@code spanprofile.core-wait=false}) or while it runs
	 * @param graph its flame graph's address relative to the endpoint; {@code null} when
	 * not kept (outside the slowest)
	 * @param hottestFrames the methods its own CPU samples ended in most
	 */
	public record Step(int id, Integer parentId, String name, String detail, String thread, double startMillis,
			double durationMillis, double ownMillis, double cpuMillis, double classLoadingMillis, Double waitMillis,
			Double coreWaitMillis, long allocatedBytes, long cpuSamples, boolean running, String graph,
			List<Frame> hottestFrames) {
	}

	/** A method and the CPU time its samples ended in it stand for. */
	public record Frame(String frame, double cpuMillis) {
	}

	/**
	 * The whole start.
	 *
	 * @param cpuApplicationMillis CPU in the application's own code
	 * @param cpuFrameworkMillis CPU in libraries and frameworks (Spring)
	 * @param cpuJdkMillis CPU in the JDK with no other caller on the stack
	 * @param classLoadingMillis CPU loading, defining and verifying classes
	 * @param jitCompilationMillis time the JIT compilers spent during the start, on their
	 * own threads beside it; {@code null} where the JVM does not tell
	 * @param waitMillis recorded waits of the start's threads; {@code null} when not
	 * sampled
	 * @param coreWaitMillis the time the thread that ran the start was runnable but not
	 * running, waiting for a core, as the kernel counted it (less what its recorded waits
	 * hold); {@code null} where not measured
	 * @param unaccountedMillis on the thread that ran the start, its time neither on CPU
	 * nor in a recorded wait nor, where measured, waiting for a core (waits shorter than
	 * the threshold)
	 */
	public record Breakdown(double durationMillis, double cpuMillis, double cpuApplicationMillis,
			double cpuFrameworkMillis, double cpuJdkMillis, double classLoadingMillis, Double jitCompilationMillis,
			Long classesLoaded, Double waitMillis, Double coreWaitMillis, Double unaccountedMillis) {
	}

}
