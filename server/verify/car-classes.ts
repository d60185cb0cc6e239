/**
 * The allowed car classes of the leaderboards: the shipped cars, each as the exact set of files the game
 * embeds in a replay (the car file and every file it extends). A submitted run's car must equal one of them
 * byte for byte; its class is the shipped car's id.
 */
import { BUILTIN_CARS } from '../../src/content/cars/index';
import { embedCarFiles } from '../../src/run/cars';
import { readCarFile } from '../../src/replay/node';
import type { CarFilesSource } from '../../src/replay/format';

export interface CarClass {
  id: string;
  main: string;
  files: Readonly<Record<string, string>>;
}

export function shippedCarClasses(): CarClass[] {
  return BUILTIN_CARS.map((c) => ({ id: c.id, main: c.file, files: embedCarFiles(c.file, c.text, readCarFile) }));
}

function sameFiles(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a[k] === b[k]);
}

/** The class whose files the car carries exactly (same main file, same names, same bytes), or null. */
export function carClassOf(car: CarFilesSource, classes: readonly CarClass[]): CarClass | null {
  return classes.find((c) => c.main === car.main && sameFiles(c.files, car.files)) ?? null;
}
