package dev.spanprofile.benchmarks.overhead;

import dev.spanprofile.benchmarks.overhead.app.BenchApplication;
import dev.spanprofile.benchmarks.overhead.handoff.async.AsyncApplication;
import dev.spanprofile.benchmarks.overhead.handoff.reactive.ReactiveApplication;
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

	/**
	 * {@link AsyncApplication}: Spring MVC, the request's loop rounds in an
	 * {@code @Async} method on Boot's task executor while the request's thread waits.
	 */
	public static Workload async(int rounds) {
		return new Workload("async", AsyncApplication.class.getName(), "/async-work?rounds=" + rounds);
	}

	/**
	 * {@link ReactiveApplication}: WebFlux, the request's loop rounds in thirds after a
	 * {@code subscribeOn}, a {@code publishOn} and a 1 ms timer hop.
	 */
	public static Workload reactive(int rounds) {
		return new Workload("reactive", ReactiveApplication.class.getName(), "/hops?rounds=" + rounds);
	}

	/**
	 * By its label, as the command lines name it: {@code pages}, or {@code work},
	 * {@code async} and {@code reactive} with {@code rounds} loop rounds a request.
	 */
	public static Workload named(String label, int rounds) {
		return switch (label) {
			case "pages" -> pages();
			case "work" -> work(rounds);
			case "async" -> async(rounds);
			case "reactive" -> reactive(rounds);
			default ->
				throw new IllegalArgumentException("Unknown workload " + label + ": pages, work, async or reactive");
		};
	}

}
