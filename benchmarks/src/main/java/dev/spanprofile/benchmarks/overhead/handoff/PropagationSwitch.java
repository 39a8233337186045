package dev.spanprofile.benchmarks.overhead.handoff;

import java.util.Map;

import reactor.core.publisher.Hooks;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.core.task.TaskDecorator;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Switches at run time the context propagation the starter turned on at startup, so that
 * two copies of one application can be compared with it on and off in opposite phase
 * ({@code SwitchProbe --switch propagation}) instead of two applications started
 * differently, whose JVMs differ by more than the cost measured.
 * <p>
 * On, each does what Spring Boot set up: Boot's task decorator (a
 * {@code ContextPropagatingTaskDecorator}, from
 * {@code spring.task.execution.propagate-context=true}) decorates every task given to
 * Boot's executor, and Reactor's automatic context propagation (from
 * {@code spring.reactor.context-propagation=auto}) is on. Off, tasks run undecorated and
 * Reactor's hook is off ({@link Hooks#disableAutomaticContextPropagation()}), as in an
 * application started with Boot's own defaults. A task or a reactive chain assembled
 * before a switch keeps what it had.
 */
@RestController
public class PropagationSwitch {

	private static volatile boolean on = true;

	private final boolean reactorAuto;

	PropagationSwitch(Environment environment) {
		this.reactorAuto = "auto".equalsIgnoreCase(environment.getProperty("spring.reactor.context-propagation"));
	}

	/**
	 * {@code POST /propagation?on=true|false}: answers what is switched, e.g.
	 * {@code {"on": false, "reactor": true}}.
	 */
	@PostMapping("/propagation")
	Map<String, Object> set(@RequestParam boolean on) {
		PropagationSwitch.on = on;
		if (this.reactorAuto) {
			if (on) {
				Hooks.enableAutomaticContextPropagation();
			}
			else {
				Hooks.disableAutomaticContextPropagation();
			}
		}
		return Map.of("on", on, "reactor", this.reactorAuto);
	}

	/** Boot's task decorator, applied only while the switch is on. */
	@Bean
	static BeanPostProcessor switchableTaskDecorator() {
		return new BeanPostProcessor() {
			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) {
				if (bean instanceof TaskDecorator decorator) {
					return (TaskDecorator) (task) -> on ? decorator.decorate(task) : task;
				}
				return bean;
			}
		};
	}

}
