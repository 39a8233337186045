package dev.spanprofile.autoconfigure.handoff;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.task.TaskDecorator;
import org.springframework.core.task.support.ContextPropagatingTaskDecorator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What the starter turns on for work handed to other threads, what it leaves where the
 * application chose itself, and the one line it logs about either. Only APIs that every
 * supported Boot line shares (compat/boot35 runs these too): on lines without
 * {@code spring.task.execution.propagate-context} a task decorator stands in for it.
 */
@ExtendWith(OutputCaptureExtension.class)
class ContextPropagationAutoConfigurationTests {

	private static final String INFO = "spanprofile: turned on ";

	private static final String TASK_WARNING = "spring.task.execution.propagate-context is false";

	private static final String REACTOR_WARNING = "spring.reactor.context-propagation is limited";

	private static final AutoConfigurations CONFIGURATIONS = AutoConfigurations.of(
			ContextPropagationAutoConfiguration.class, TaskExecutionAutoConfiguration.class,
			TaskSchedulingAutoConfiguration.class);

	/**
	 * As on Boot's defaults: the listener's defaults applied before the context starts.
	 */
	private final ApplicationContextRunner servlet = new ApplicationContextRunner().withConfiguration(CONFIGURATIONS)
		.withInitializer((context) -> ContextPropagationDefaults.apply(context.getEnvironment(), false,
				getClass().getClassLoader()));

	private final ReactiveWebApplicationContextRunner reactive = new ReactiveWebApplicationContextRunner()
		.withConfiguration(CONFIGURATIONS)
		.withInitializer((context) -> ContextPropagationDefaults.apply(context.getEnvironment(), true,
				getClass().getClassLoader()));

	@Test
	void bootsTaskExecutorCarriesTheContextOnBootsDefaults(CapturedOutput output) {
		this.servlet.run((context) -> {
			assertThat(context).hasNotFailed();
			// Boot's own decorator (4.1) or the starter's (3.5, 4.0): one either way,
			// which Boot's executor and scheduler builders pick up.
			assertThat(context).hasSingleBean(ContextPropagatingTaskDecorator.class);
			if (ContextPropagationSwitches.bootHasTaskExecutionSwitch()) {
				assertThat(context.getEnvironment().getProperty(ContextPropagationSwitches.TASK_EXECUTION))
					.isEqualTo("true");
				assertThat(context).doesNotHaveBean(ContextPropagationAutoConfiguration.DECORATOR_BEAN);
			}
			else {
				assertThat(context).hasBean(ContextPropagationAutoConfiguration.DECORATOR_BEAN);
			}
			assertThat(context.getEnvironment().getProperty(ContextPropagationSwitches.REACTOR)).isNull();
			assertThat(context.getBean(ContextPropagationReport.class).handOffHint()).isNull();
		});
		String expected = ContextPropagationSwitches.bootHasTaskExecutionSwitch()
				? "spring.task.execution.propagate-context=true"
				: "a ContextPropagatingTaskDecorator for Spring Boot's task executor and scheduler";
		assertThat(output).containsOnlyOnce(INFO)
			.contains(INFO + expected + ", so that work handed to another thread (@Async methods, scheduled tasks)")
			.contains("To opt out, set these yourself or spanprofile.propagate-context=false.")
			.doesNotContain("WARN");
	}

	@Test
	void applicationsOwnFalseIsLeftAndWarnedAbout(CapturedOutput output) {
		assumeTrue(ContextPropagationSwitches.bootHasTaskExecutionSwitch(), "Boot 4.1 and later");
		this.servlet.withPropertyValues("spring.task.execution.propagate-context=false").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(TaskDecorator.class);
			assertThat(defaultProperties(context.getEnvironment()))
				.doesNotContainKey(ContextPropagationSwitches.TASK_EXECUTION);
		});
		assertThat(output).doesNotContain(INFO)
			.containsOnlyOnce("WARN")
			.contains(TASK_WARNING + ", so work handed to Spring Boot's task executor or scheduler")
			.contains("Set spring.task.execution.propagate-context=true (or remove it)");
	}

	@Test
	void applicationsOwnTaskDecoratorKeepsTheStartersOut(CapturedOutput output) {
		assumeFalse(ContextPropagationSwitches.bootHasTaskExecutionSwitch(), "Boot 3.5 and 4.0");
		this.servlet.withUserConfiguration(OwnDecorator.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).hasSingleBean(TaskDecorator.class).hasBean("ownDecorator");
		});
		assertThat(output).doesNotContain(INFO).doesNotContain("WARN");
	}

	@Test
	void reactiveApplicationsGetReactorsAutomaticPropagation(CapturedOutput output) {
		assumeReactor();
		this.reactive.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getEnvironment().getProperty(ContextPropagationSwitches.REACTOR)).isEqualTo("auto");
		});
		assertThat(output).containsOnlyOnce(INFO)
			.contains("spring.reactor.context-propagation=auto, so that work handed to another thread")
			.contains("Reactor's subscribeOn, publishOn and timers")
			.doesNotContain("WARN");
	}

	@Test
	void reactiveApplicationsOwnLimitedIsLeftAndWarnedAbout(CapturedOutput output) {
		assumeReactor();
		this.reactive.withPropertyValues("spring.reactor.context-propagation=limited").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getEnvironment().getProperty(ContextPropagationSwitches.REACTOR)).isEqualTo("limited");
			assertThat(context.getBean(ContextPropagationReport.class).handOffHint())
				.startsWith("spring.reactor.context-propagation is limited (set in test): set it to auto");
		});
		assertThat(output).containsOnlyOnce(REACTOR_WARNING)
			.contains("Set spring.reactor.context-propagation=auto to profile that work in its request.")
			.doesNotContain("spring.reactor.context-propagation=auto, so that")
			.doesNotContain(TASK_WARNING);
	}

	@Test
	void optingOutLeavesEverythingToTheApplicationQuietly(CapturedOutput output) {
		this.reactive
			.withPropertyValues("spanprofile.propagate-context=false", "spring.reactor.context-propagation=limited")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).doesNotHaveBean(TaskDecorator.class);
				assertThat(context.getEnvironment().getProperty(ContextPropagationSwitches.TASK_EXECUTION)).isNull();
				// Quiet at startup, but a span page still says why its work is missing.
				String hint = context.getBean(ContextPropagationReport.class).handOffHint();
				assertThat(hint).contains("spring.reactor.context-propagation is limited (set in test)");
				if (ContextPropagationSwitches.bootHasTaskExecutionSwitch()) {
					assertThat(hint).contains("spring.task.execution.propagate-context is Boot's default, false, as "
							+ "spanprofile.propagate-context is false (set in test)");
				}
			});
		assertThat(output).doesNotContain("spanprofile:");
	}

	@Test
	void aValueSetInAnyFormIsTheApplicationsChoice() {
		// Relaxed binding: an environment variable sets the property as much as its
		// canonical name does.
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
					new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
							Map.of("SPRING_TASK_EXECUTION_PROPAGATECONTEXT", "false",
									"SPRING_REACTOR_CONTEXTPROPAGATION", "limited")));
		ConfigurationPropertySources.attach(environment);
		ContextPropagationDefaults.apply(environment, true, getClass().getClassLoader());
		assertThat(defaultProperties(environment)).isEmpty();
		assertThat(environment.getProperty(ContextPropagationSwitches.REACTOR)).isEqualTo("limited");
	}

	@Test
	void defaultsComeLastAndOnlyForWhatIsUnset() {
		assumeReactor();
		StandardEnvironment environment = new StandardEnvironment();
		ContextPropagationDefaults.apply(environment, true, getClass().getClassLoader());
		assertThat(environment.getPropertySources().stream().reduce((first, second) -> second).orElseThrow().getName())
			.isEqualTo(ContextPropagationSwitches.DEFAULT_PROPERTIES);
		assertThat(environment.getProperty(ContextPropagationSwitches.REACTOR)).isEqualTo("auto");
		assertThat(environment.getProperty(ContextPropagationSwitches.TASK_EXECUTION))
			.isEqualTo(ContextPropagationSwitches.bootHasTaskExecutionSwitch() ? "true" : null);
		// Not reactive: Reactor's hooks are left alone.
		StandardEnvironment servlet = new StandardEnvironment();
		ContextPropagationDefaults.apply(servlet, false, getClass().getClassLoader());
		assertThat(servlet.getProperty(ContextPropagationSwitches.REACTOR)).isNull();
	}

	@Test
	void theListenerRunsAfterTheApplicationsPropertiesAreLoaded() {
		assumeTrue(ContextPropagationSwitches.bootHasTaskExecutionSwitch(), "Boot 4.1 and later");
		// context-propagation-off.properties sets propagate-context=false.
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Empty.class)
			.web(WebApplicationType.NONE)
			.run("--spring.config.name=context-propagation-off")) {
			assertThat(context.getEnvironment().getProperty(ContextPropagationSwitches.TASK_EXECUTION))
				.isEqualTo("false");
		}
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Empty.class)
			.web(WebApplicationType.NONE)
			.run()) {
			ConfigurableEnvironment environment = context.getEnvironment();
			assertThat(environment.getProperty(ContextPropagationSwitches.TASK_EXECUTION)).isEqualTo("true");
			assertThat(defaultProperties(environment)).containsEntry(ContextPropagationSwitches.TASK_EXECUTION, "true");
		}
	}

	@Test
	void anApplicationsPropertySourceOutranksTheDefaults(CapturedOutput output) {
		assumeTrue(ContextPropagationSwitches.bootHasTaskExecutionSwitch(), "Boot 4.1 and later");
		// An @PropertySource is read while the configuration classes are parsed, after
		// the listener added its defaults: it must still win, for Boot's condition on
		// the property as for the environment.
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(OwnPropertySource.class)
			.web(WebApplicationType.NONE)
			.run()) {
			assertThat(context.getEnvironment().getProperty(ContextPropagationSwitches.TASK_EXECUTION))
				.isEqualTo("false");
			assertThat(context.getBeansOfType(TaskDecorator.class)).isEmpty();
			assertThat(context.getBean(ContextPropagationReport.class).handOffHint())
				.startsWith("spring.task.execution.propagate-context is false (set in class path resource "
						+ "[context-propagation-off.properties])");
		}
		assertThat(output).doesNotContain(INFO).contains(TASK_WARNING);
	}

	@Test
	void theListenerTellsAReactiveApplicationByItsSetting() {
		SpringApplication application = new SpringApplication(Empty.class);
		application.setWebApplicationType(WebApplicationType.SERVLET);
		StandardEnvironment environment = new StandardEnvironment();
		assertThat(ContextPropagationDefaults.reactive(environment, application)).isFalse();
		environment.getPropertySources()
			.addFirst(new MapPropertySource("args", Map.of("spring.main.web-application-type", "REACTIVE")));
		assertThat(ContextPropagationDefaults.reactive(environment, application)).isTrue();
		application.setWebApplicationType(WebApplicationType.REACTIVE);
		assertThat(ContextPropagationDefaults.reactive(new StandardEnvironment(), application)).isTrue();
	}

	/** What Boot's default properties hold, the starter's defaults among them. */
	private static Map<String, Object> defaultProperties(ConfigurableEnvironment environment) {
		PropertySource<?> defaults = environment.getPropertySources()
			.get(ContextPropagationSwitches.DEFAULT_PROPERTIES);
		return (defaults != null) ? ((MapPropertySource) defaults).getSource() : Map.of();
	}

	/** Reactor is not on every Boot line's test class path here (compat/boot35). */
	private void assumeReactor() {
		assumeTrue(ContextPropagationSwitches.reactorPresent(getClass().getClassLoader()), "Reactor");
	}

	@Configuration(proxyBeanMethods = false)
	static class Empty {

	}

	@Configuration(proxyBeanMethods = false)
	@org.springframework.context.annotation.PropertySource("classpath:context-propagation-off.properties")
	@ImportAutoConfiguration({ ContextPropagationAutoConfiguration.class, TaskExecutionAutoConfiguration.class,
			TaskSchedulingAutoConfiguration.class })
	static class OwnPropertySource {

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnDecorator {

		@Bean
		TaskDecorator ownDecorator() {
			return (runnable) -> runnable;
		}

	}

}
