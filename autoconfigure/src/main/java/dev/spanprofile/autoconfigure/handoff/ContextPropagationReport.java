package dev.spanprofile.autoconfigure.handoff;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.spanprofile.SpanProfiler;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;

/**
 * Says at startup, in one INFO line, what the starter turned on for work handed to other
 * threads and how to opt out; and in one WARN line per switch, where the application
 * turned one off itself, what its graphs then miss and which property changes it. Tells
 * the profiler which switch is off and where ({@link SpanProfiler#setHandOffHint}), so
 * that a request whose work went elsewhere without its context says why on its page.
 */
final class ContextPropagationReport implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(ContextPropagationReport.class);

	private final ConfigurableEnvironment environment;

	private final boolean reactive;

	private final boolean decoratorAdded;

	private final ObjectProvider<SpanProfiler> profiler;

	/**
	 * @param reactive whether the application is a reactive web application
	 * @param decoratorAdded whether the starter added a context-propagating task
	 * decorator (Boot lines without {@value ContextPropagationSwitches#TASK_EXECUTION})
	 * @param profiler told which switch is off, for the span pages
	 */
	ContextPropagationReport(ConfigurableEnvironment environment, boolean reactive, boolean decoratorAdded,
			ObjectProvider<SpanProfiler> profiler) {
		this.environment = environment;
		this.reactive = reactive;
		this.decoratorAdded = decoratorAdded;
		this.profiler = profiler;
	}

	@Override
	public void afterSingletonsInstantiated() {
		SpanProfiler profiler = this.profiler.getIfAvailable();
		if (profiler != null) {
			profiler.setHandOffHint(handOffHint());
		}
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

	/**
	 * What the starter's defaults turned on and no other source overrode: the switches
	 * whose value comes from Boot's default properties and is the starter's.
	 */
	List<String> turnedOn() {
		List<String> turnedOn = new ArrayList<>();
		for (Map.Entry<String, String> ours : ContextPropagationDefaults.VALUES.entrySet()) {
			ConfigurationProperty effective = effective(ours.getKey());
			if (effective != null && ours.getValue().equals(String.valueOf(effective.getValue()))
					&& ContextPropagationSwitches.DEFAULT_PROPERTIES.equals(sourceName(effective))) {
				turnedOn.add(ours.getKey() + "=" + ours.getValue());
			}
		}
		if (this.decoratorAdded) {
			turnedOn.add("a ContextPropagatingTaskDecorator for Spring Boot's task executor and scheduler");
		}
		return turnedOn;
	}

	/**
	 * Which switch keeps a request's context from following the work it hands to other
	 * threads, where it is off and what turns it on, for the span pages of requests that
	 * read like it; {@code null} when none is known to be off.
	 */
	String handOffHint() {
		List<String> off = new ArrayList<>();
		if (ContextPropagationSwitches.bootHasTaskExecutionSwitch()) {
			String cause = offBecause(ContextPropagationSwitches.TASK_EXECUTION, "true", "false");
			if (cause != null) {
				off.add(cause + ": set it to true (or remove it) to profile @Async methods and scheduled tasks in "
						+ "their request");
			}
		}
		if (this.reactive) {
			String cause = offBecause(ContextPropagationSwitches.REACTOR, "auto", "limited");
			if (cause != null) {
				off.add(cause + ": set it to auto to profile work after subscribeOn, publishOn and timers in its "
						+ "request");
			}
		}
		return off.isEmpty() ? null : String.join("; and ", off);
	}

	/**
	 * Why {@code name} is not {@code on}: the value and where it is set, or, where the
	 * application set nothing and opted out of the starter's defaults, Boot's default;
	 * {@code null} when it is on.
	 */
	private String offBecause(String name, String on, String bootDefault) {
		ConfigurationProperty effective = effective(name);
		if (effective != null) {
			String value = String.valueOf(effective.getValue()).trim();
			return on.equalsIgnoreCase(value) ? null
					: name + " is " + value + " (set in " + sourceName(effective) + ")";
		}
		ConfigurationProperty optOut = effective(ContextPropagationSwitches.SPANPROFILE);
		if (optOut != null && "false".equalsIgnoreCase(String.valueOf(optOut.getValue()).trim())) {
			return name + " is Boot's default, " + bootDefault + ", as " + ContextPropagationSwitches.SPANPROFILE
					+ " is false (set in " + sourceName(optOut) + ")";
		}
		return null;
	}

	/**
	 * The value the application's environment binds to {@code name}, relaxed names too.
	 */
	private ConfigurationProperty effective(String name) {
		ConfigurationPropertyName key = ConfigurationPropertyName.of(name);
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(this.environment)) {
			ConfigurationProperty property = source.getConfigurationProperty(key);
			if (property != null) {
				return property;
			}
		}
		return null;
	}

	/**
	 * The name of the property source {@code property} comes from: a file's resource,
	 * {@code commandLineArgs}, {@code systemEnvironment}, {@code defaultProperties}.
	 */
	private static String sourceName(ConfigurationProperty property) {
		Object underlying = (property.getSource() != null) ? property.getSource().getUnderlyingSource() : null;
		return (underlying instanceof PropertySource<?> source) ? source.getName() : "an unnamed property source";
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
