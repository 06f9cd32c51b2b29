/**
 * Registry credentials of a pod (`imagePullSecrets`).
 */

import type { ISecret } from 'cdk8s-plus-28';
import { checkArguments, implementing, req, str } from '../k8s/shape';

/** A Secret of type `kubernetes.io/dockerconfigjson` the kubelet uses to pull the images. Create with the factories. */
export class ImagePullSecret {
  /** The Secret with this name in the service's namespace. */
  public static fromName(name: string): ImagePullSecret {
    checkArguments('ImagePullSecret.fromName', arguments, [['name', req(str)]]);
    return new ImagePullSecret(name);
  }

  /** A cdk8s-plus Secret (e.g. `new kplus.DockerConfigSecret(...)`), in the service's namespace. */
  public static fromSecret(secret: ISecret): ImagePullSecret {
    checkArguments('ImagePullSecret.fromSecret', arguments, [
      ['secret', req(implementing('ISecret (a cdk8s-plus Secret)', { name: req(str) }))],
    ]);
    return new ImagePullSecret(secret?.name);
  }

  /** The Secret's name. */
  public readonly name: string;

  private constructor(name: string) {
    this.name = name;
  }
}
