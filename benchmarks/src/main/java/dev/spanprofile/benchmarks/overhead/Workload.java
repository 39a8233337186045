package dev.spanprofile.benchmarks.overhead;

import dev.spanprofile.benchmarks.overhead.app.BenchApplication;
import dev.spanprofile.benchmarks.overhead.pages.PageApplication;

/**
 * Which application the overhead benchmark puts under load, and the request every
 * connection repeats.
 *
 * @param label how the report names it
 * @param mainClass the application's main class, started in a JVM of its own
 * @param path the request path with its query
 */
public record Workload(String label, String mainClass, String path) {

	/**
	 * {@link BenchApplication}: a fixed number of loop rounds in one traced child step,
	 * shallow stacks.
	 */
	public static Workload work(int rounds) {
		return new Workload("work", BenchApplication.class.getName(), "/work?rounds=" + rounds);
	}

	/**
	 * {@link PageApplication}: the owners search page, one query plus one per pet,
	 * rendered by Thymeleaf; stacks 100–200 frames deep.
	 */
	public static Workload pages() {
		return new Workload("pages", PageApplication.class.getName(), "/owners?lastName=M");
	}

}
