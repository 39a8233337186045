package dev.spanprofile.autoconfigure.handoff;

import org.springframework.boot.autoconfigure.AutoConfigurationImportEvent;
import org.springframework.boot.autoconfigure.AutoConfigurationImportListener;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;

/**
 * Moves Spring Boot's default properties, where the starter's context-propagation
 * defaults are ({@link ContextPropagationDefaults}), below the application's
 * {@code @PropertySource} files before the auto-configurations' conditions read them.
 * <p>
 * An {@code @PropertySource} is added last while the application's configuration classes
 * are parsed, below the default properties; Boot moves those last again, but only once
 * every configuration class is parsed, after the conditions of the auto-configurations:
 * Boot's {@code @ConditionalOnProperty} on
 * {@code spring.task.execution.propagate-context} would see the starter's {@code true}
 * over the application's {@code false}. The auto-configurations are imported after the
 * application's own classes, so this is the moment to restore the order Boot restores
 * later anyway.
 */
public class DefaultPropertiesLast implements AutoConfigurationImportListener, EnvironmentAware {

	private Environment environment;

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void onAutoConfigurationImportEvent(AutoConfigurationImportEvent event) {
		if (this.environment instanceof ConfigurableEnvironment configurable) {
			MutablePropertySources sources = configurable.getPropertySources();
			PropertySource<?> defaults = sources.remove(ContextPropagationSwitches.DEFAULT_PROPERTIES);
			if (defaults != null) {
				sources.addLast(defaults);
			}
		}
	}

}
