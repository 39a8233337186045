package dev.spanprofile.autoconfigure.handoff;

import java.util.ArrayList;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;

/**
 * Says at startup, in one INFO line, what the starter turned on for work handed to other
 * threads and how to opt out; and in one WARN line per switch, where the application
 * turned one off itself, what its graphs then miss and which property changes it.
 */
final class ContextPropagationReport implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(ContextPropagationReport.class);

	private final ConfigurableEnvironment environment;

	private final boolean reactive;

	private final boolean decoratorAdded;

	/**
	 * @param reactive whether the application is a reactive web application
	 * @param decoratorAdded whether the starter added a context-propagating task
	 * decorator (Boot lines without {@value ContextPropagationSwitches#TASK_EXECUTION})
	 */
	ContextPropagationReport(ConfigurableEnvironment environment, boolean reactive, boolean decoratorAdded) {
		this.environment = environment;
		this.reactive = reactive;
		this.decoratorAdded = decoratorAdded;
	}

	@Override
	public void afterSingletonsInstantiated() {
		List<String> turnedOn = turnedOn();
		if (!turnedOn.isEmpty()) {
			logger.info("spanprofile: turned on " + String.join(" and ", turnedOn)
					+ ", so that work handed to another thread (@Async methods, scheduled tasks"
					+ (this.reactive ? ", Reactor's subscribeOn, publishOn and timers" : "")
					+ ") is profiled in its request's span. To opt out, set these yourself or "
					+ ContextPropagationSwitches.SPANPROFILE + "=false.");
		}
		warnings().forEach(logger::warn);
	}

	/** What the starter's defaults turned on and no other source overrode. */
	List<String> turnedOn() {
		List<String> turnedOn = new ArrayList<>();
		PropertySource<?> defaults = this.environment.getPropertySources()
			.get(ContextPropagationSwitches.DEFAULTS_SOURCE);
		if (defaults instanceof EnumerablePropertySource<?> enumerable) {
			for (String name : enumerable.getPropertyNames()) {
				Object value = enumerable.getProperty(name);
				if (String.valueOf(value).equals(this.environment.getProperty(name))) {
					turnedOn.add(name + "=" + value);
				}
			}
		}
		if (this.decoratorAdded) {
			turnedOn.add("a ContextPropagatingTaskDecorator for Spring Boot's task executor and scheduler");
		}
		return turnedOn;
	}

	/**
	 * The application's own choices that keep work on other threads out of its graphs.
	 */
	List<String> warnings() {
		List<String> warnings = new ArrayList<>();
		if (!this.environment.getProperty(ContextPropagationSwitches.SPANPROFILE, Boolean.class, true)) {
			return warnings;
		}
		String taskExecution = this.environment.getProperty(ContextPropagationSwitches.TASK_EXECUTION);
		if (ContextPropagationSwitches.bootHasTaskExecutionSwitch() && "false".equalsIgnoreCase(taskExecution)) {
			warnings.add("spanprofile: " + ContextPropagationSwitches.TASK_EXECUTION + " is false, so work handed to "
					+ "Spring Boot's task executor or scheduler (@Async methods, scheduled tasks) runs without its "
					+ "request's span: its samples count outside spans and its request's graph misses it. Set "
					+ ContextPropagationSwitches.TASK_EXECUTION + "=true (or remove it) to profile that work in its "
					+ "request.");
		}
		String reactor = this.environment.getProperty(ContextPropagationSwitches.REACTOR);
		if (this.reactive && reactor != null && !"auto".equalsIgnoreCase(reactor.trim())) {
			warnings.add("spanprofile: " + ContextPropagationSwitches.REACTOR + " is " + reactor + ", so a "
					+ "request's work after a thread hop (subscribeOn, publishOn, delays and other timers) runs "
					+ "without its span: its samples count outside spans and its request's graph misses them. Set "
					+ ContextPropagationSwitches.REACTOR + "=auto to profile that work in its request.");
		}
		return warnings;
	}

}
