package dev.spanprofile.autoconfigure.handoff;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.spanprofile.autoconfigure.otelagent.OtelJavaAgent;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.event.GenericApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;

/**
 * Turns on Spring Boot's context propagation where the application has not set it: for
 * Boot's task executor and scheduler ({@code spring.task.execution.propagate-context},
 * Boot 4.1 and later) and, in a reactive application, for Reactor's operators
 * ({@code spring.reactor.context-propagation=auto}). Without them, work handed to another
 * thread runs without its request's span, and the request's graph misses it.
 * <p>
 * The values go into Spring Boot's {@code defaultProperties}, the source of the lowest
 * precedence, and only for properties that no other source sets: whatever the application
 * configures wins. Boot keeps that source last even after an {@code @PropertySource} is
 * added below it (a source of the starter's own would stay above those). This is an
 * application listener rather than an {@code EnvironmentPostProcessor} because that
 * interface changed packages in Boot 4 (the old one is deprecated for removal) while the
 * listener key is the same on every supported line. It runs after the config data
 * ({@code application.properties}) has been loaded.
 */
public class ContextPropagationDefaults implements GenericApplicationListener {

	/**
	 * Each switch the starter may turn on, with the value it sets, in the order the
	 * startup line names them.
	 */
	static final Map<String, String> VALUES;

	static {
		Map<String, String> values = new LinkedHashMap<>();
		values.put(ContextPropagationSwitches.TASK_EXECUTION, "true");
		values.put(ContextPropagationSwitches.REACTOR, "auto");
		VALUES = Collections.unmodifiableMap(values);
	}

	@Override
	public boolean supportsEventType(ResolvableType eventType) {
		return ApplicationEnvironmentPreparedEvent.class.isAssignableFrom(eventType.toClass());
	}

	@Override
	public void onApplicationEvent(ApplicationEvent event) {
		ApplicationEnvironmentPreparedEvent prepared = (ApplicationEnvironmentPreparedEvent) event;
		ConfigurableEnvironment environment = prepared.getEnvironment();
		if (OtelJavaAgent.detect().running()) {
			// The agent carries the context across executors and Reactor itself.
			return;
		}
		apply(environment, reactive(environment, prepared.getSpringApplication()), getClass().getClassLoader());
	}

	/**
	 * Adds the defaults that {@code environment} lacks, in a reactive application also
	 * Reactor's.
	 */
	static void apply(ConfigurableEnvironment environment, boolean reactive, ClassLoader classLoader) {
		if (!environment.getProperty("spanprofile.enabled", Boolean.class, true)
				|| !environment.getProperty(ContextPropagationSwitches.SPANPROFILE, Boolean.class, true)
				|| !ContextPropagationSwitches.contextPropagationPresent(classLoader)) {
			return;
		}
		Map<String, Object> defaults = new LinkedHashMap<>();
		if (ContextPropagationSwitches.bootHasTaskExecutionSwitch()
				&& !environment.containsProperty(ContextPropagationSwitches.TASK_EXECUTION)) {
			defaults.put(ContextPropagationSwitches.TASK_EXECUTION,
					VALUES.get(ContextPropagationSwitches.TASK_EXECUTION));
		}
		if (reactive && ContextPropagationSwitches.reactorPresent(classLoader)
				&& !environment.containsProperty(ContextPropagationSwitches.REACTOR)) {
			defaults.put(ContextPropagationSwitches.REACTOR, VALUES.get(ContextPropagationSwitches.REACTOR));
		}
		if (!defaults.isEmpty()) {
			addOrMerge(defaults, environment.getPropertySources());
		}
	}

	/**
	 * As Boot's own {@code DefaultPropertiesPropertySource.addOrMerge}, which changed
	 * packages in Boot 4: the source's name is what Boot keeps last.
	 */
	private static void addOrMerge(Map<String, Object> defaults, MutablePropertySources sources) {
		PropertySource<?> existing = sources.get(ContextPropagationSwitches.DEFAULT_PROPERTIES);
		Map<String, Object> merged = new LinkedHashMap<>(defaults);
		if (existing != null && existing.getSource() instanceof Map<?, ?> map) {
			map.forEach((name, value) -> merged.put(String.valueOf(name), value));
			sources.replace(ContextPropagationSwitches.DEFAULT_PROPERTIES,
					new MapPropertySource(ContextPropagationSwitches.DEFAULT_PROPERTIES, merged));
		}
		else if (existing == null) {
			sources.addLast(new MapPropertySource(ContextPropagationSwitches.DEFAULT_PROPERTIES, merged));
		}
	}

	/**
	 * The application's type as it will be once {@code spring.main.*} is bound to it,
	 * which happens after this event.
	 */
	static boolean reactive(ConfigurableEnvironment environment, SpringApplication application) {
		String configured = environment.getProperty("spring.main.web-application-type");
		if (configured != null) {
			return WebApplicationType.REACTIVE.name().equalsIgnoreCase(configured.trim());
		}
		return application.getWebApplicationType() == WebApplicationType.REACTIVE;
	}

	/** After Boot's config data and logging listeners. */
	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
