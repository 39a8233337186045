package dev.spanprofile.autoconfigure.handoff;

import org.springframework.boot.autoconfigure.task.TaskExecutionProperties;
import org.springframework.util.ClassUtils;

/**
 * The properties through which Spring Boot carries the current context to other threads,
 * and which of them the application's Boot line and class path offer.
 */
final class ContextPropagationSwitches {

	/**
	 * Boot's task executor and scheduler carry the context (since Boot 4.1: a
	 * {@code ContextPropagatingTaskDecorator} that both use).
	 */
	static final String TASK_EXECUTION = "spring.task.execution.propagate-context";

	/** Reactor's operators carry the context across thread hops when {@code auto}. */
	static final String REACTOR = "spring.reactor.context-propagation";

	/** The starter's own switch: false leaves all of the above to the application. */
	static final String SPANPROFILE = "spanprofile.propagate-context";

	/**
	 * Spring Boot's default properties, the source it keeps of the lowest precedence,
	 * where the starter's defaults go ({@code DefaultPropertiesPropertySource.NAME},
	 * whose class changed packages in Boot 4).
	 */
	static final String DEFAULT_PROPERTIES = "defaultProperties";

	/** Micrometer's context-propagation library, which every switch above needs. */
	static final String CONTEXT_SNAPSHOT = "io.micrometer.context.ContextSnapshot";

	private static final String REACTOR_HOOKS = "reactor.core.publisher.Hooks";

	private ContextPropagationSwitches() {
	}

	/**
	 * Whether this Boot line has {@value #TASK_EXECUTION} (4.1 and later; 3.5 and 4.0
	 * need a task decorator bean instead).
	 */
	static boolean bootHasTaskExecutionSwitch() {
		return ClassUtils.hasMethod(TaskExecutionProperties.class, "getPropagateContext");
	}

	static boolean contextPropagationPresent(ClassLoader classLoader) {
		return ClassUtils.isPresent(CONTEXT_SNAPSHOT, classLoader);
	}

	static boolean reactorPresent(ClassLoader classLoader) {
		return ClassUtils.isPresent(REACTOR_HOOKS, classLoader);
	}

}
