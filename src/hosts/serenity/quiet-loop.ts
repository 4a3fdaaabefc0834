import { type Serenity, ServerEvent, ServerState } from '@serenityjs/core';
import { RAKNET_TPS } from '@serenityjs/raknet';

/**
 * Starts a SerenityJS server like `Serenity.start()` of @serenityjs/core 0.8.21 (pinned: this
 * copies its tick logic), without its busy loop. The original re-schedules itself with
 * setImmediate between ticks and keeps one core about 80% busy at idle; here the connection tick
 * (RAKNET_TPS, 100/s, with the simulations) and the world tick (ticksPerSecond, 20/s) each run on
 * a timer. Shutdown (state ShuttingDown, set by `stop()`) stops RakNet and both timers as the
 * original does once no schedule is pending. Rejects when the UDP port cannot be bound.
 */
export async function startWithoutBusyLoop(serenity: Serenity): Promise<void> {
  const raknet = serenity.network.raknet;
  // RakNet binds without listening for errors: a port in use would crash the process.
  const bound = new Promise<void>((resolve, reject) => {
    raknet.socket.once('listening', resolve);
    raknet.socket.once('error', reject);
  });
  raknet.start(false);
  await bound;
  let lastWorldTick = process.hrtime.bigint();

  const shutDownIfAsked = (): boolean => {
    if (serenity.state !== ServerState.ShuttingDown) return false;
    serenity.simulations.clear();
    if (serenity.schedules.size > 0) return false;
    clearInterval(connectionTimer);
    clearInterval(worldTimer);
    raknet.stop();
    serenity.logger.info('Server has shutdown successfully.');
    serenity.state = ServerState.Stopped;
    return true;
  };

  const connectionTick = () => {
    if (shutDownIfAsked()) return;
    for (const simulation of serenity.simulations) {
      if (simulation.paused) continue;
      const now = process.hrtime.bigint();
      const elapsed = Number(now - simulation.lastRunTime) / 1e9;
      if (elapsed < simulation.frequency) continue;
      simulation.callback(elapsed);
      simulation.lastRunTime = now;
    }
    for (const connection of raknet.connections) connection.tick();
  };

  const worldTick = () => {
    if (shutDownIfAsked()) return;
    if (serenity.state !== ServerState.Running) serenity.state = ServerState.Running;
    const now = process.hrtime.bigint();
    const deltaMs = Number(now - lastWorldTick) / 1e6;
    lastWorldTick = now;
    const wallNow = Date.now();
    serenity.ticks.push(wallNow);
    serenity.ticks = serenity.ticks.filter((tick) => tick > wallNow - 1000);
    serenity.tps = serenity.ticks.length;
    for (const [identifier, world] of serenity.worlds) {
      try {
        world.onTick(Math.floor(deltaMs));
      } catch (error) {
        serenity.logger.error(`Failed to tick world: ${identifier}`, error);
      }
    }
    for (const schedule of serenity.schedules) {
      if (serenity.currentTick < schedule.completeTick) continue;
      try {
        schedule.execute();
      } catch (error) {
        serenity.logger.error(`Failed to execute schedule for at tick ${schedule.completeTick}`, error);
      }
      serenity.schedules.delete(schedule);
    }
    serenity.currentTick++;
  };

  const connectionTimer = setInterval(connectionTick, 1000 / RAKNET_TPS);
  const worldTimer = setInterval(worldTick, 1000 / serenity.properties.ticksPerSecond);
  serenity.state = ServerState.Running;
  await serenity.emitAsync(ServerEvent.Start, 0);
}
