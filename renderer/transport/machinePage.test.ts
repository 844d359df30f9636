import { describe, expect, it } from 'vitest';
import { machineOfPage } from './machinePage';

describe('the machine a page shows', () => {
  it('is the one of a browser page under /machines/NAME/, or of a desktop window loaded with ?machine=NAME', () => {
    expect(machineOfPage({ pathname: '/machines/box/', search: '' })).toBe('box');
    expect(machineOfPage({ pathname: '/opt/drover/renderer/index.html', search: '?machine=build-1.lan' })).toBe('build-1.lan');
    expect(machineOfPage({ pathname: '/', search: '' })).toBeNull();
    expect(machineOfPage({ pathname: '/opt/drover/renderer/index.html', search: '?machine=..%2Fetc' })).toBeNull();
    expect(machineOfPage({ pathname: '/opt/drover/renderer/index.html', search: '?machine=' })).toBeNull();
  });
});
